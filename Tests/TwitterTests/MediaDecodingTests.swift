import Testing

@testable import Posts
@testable import Twitter

/// X's videos and GIFs play their best MP4, and every picture keeps its description (v1.1 `ext_alt_text`, v2
/// `alt_text`).
struct MediaDecodingTests {
    private func tweets(_ json: String) -> [Post] {
        var reader = TweetFileReader(bytes: Array(json.utf8), name: "test.json")
        var tweets: [Post] = []
        while let event = reader.next() { if case .post(let tweet) = event { tweets.append(tweet) } }
        return tweets
    }

    @Test func aV1VideoPlaysItsHighestBitrateMP4AndAPhotoKeepsItsDescription() throws {
        let tweet = try #require(
            tweets(
                #"""
                {"id_str":"1200000000000000001","created_at":"Fri Jul 12 23:40:37 +0000 2019","full_text":"look \#
                https://t.co/v",
                 "user":{"screen_name":"ana","name":"Ana"},"entities":{},
                 "extended_entities":{"media":[
                   {"type":"video","media_url_https":"https://pbs.example/v.jpg","sizes":{"large":{"w":1280,"h":720}},
                    "indices":[5,18],"url":"https://t.co/v","ext_alt_text":null,
                    "video_info":{"aspect_ratio":[16,9],"duration_millis":30033,"variants":[
                      {"content_type":"application/x-mpegURL","url":"https://video.example/pl.m3u8"},
                      {"bitrate":832000,"content_type":"video/mp4","url":"https://video.example/640.mp4"},
                      {"bitrate":2176000,"content_type":"video/mp4","url":"https://video.example/1280.mp4"}]}},
                   {"type":"animated_gif","media_url_https":"https://pbs.example/g.jpg","sizes":{"large":{"w":400,\#
                "h":200}},
                    "video_info":{"variants":[{"bitrate":0,"content_type":"video/mp4",\#
                "url":"https://video.example/g.mp4"}]}},
                   {"type":"photo","media_url_https":"https://pbs.example/p.jpg","sizes":{"large":{"w":600,"h":600}},
                    "ext_alt_text":"A lighthouse in fog"}]}}
                """#
            ).first)
        #expect(tweet.media.map(\.kind) == [.video, .gifv, .photo])
        #expect(tweet.media.map(\.playURL) == ["https://video.example/1280.mp4", "https://video.example/g.mp4", nil])
        #expect(tweet.media.map(\.duration) == [30.033, nil, nil])
        #expect(tweet.media.map(\.alt) == [nil, nil, "A lighthouse in fog"])
    }

    @Test func aV2VideoPlaysItsBestVariantWithItsPreviewAsTheStill() throws {
        let tweet = try #require(
            tweets(
                #"""
                {"data":[{"id":"1200000000000000002","text":"clip","author_id":"1",\#
                "created_at":"2025-03-01T12:00:00.000Z",
                  "attachments":{"media_keys":["7_1","3_2"]}}],
                 "includes":{"users":[{"id":"1","username":"ana","name":"Ana"}],"media":[
                   {"media_key":"7_1","type":"video","preview_image_url":"https://pbs.example/v.jpg","width":720,\#
                "height":1280,
                    "duration_ms":5005,"alt_text":"Rain on a window","variants":[
                      {"bit_rate":256000,"content_type":"video/mp4","url":"https://video.example/320.mp4"},
                      {"bit_rate":950000,"content_type":"video/mp4","url":"https://video.example/720.mp4"}]},
                   {"media_key":"3_2","type":"photo","url":"https://pbs.example/p.jpg","width":10,"height":10}]}}
                """#
            ).first)
        #expect(tweet.media.map(\.url) == ["https://pbs.example/v.jpg", "https://pbs.example/p.jpg"])
        #expect(tweet.media.first?.playURL == "https://video.example/720.mp4")
        #expect(tweet.media.first?.alt == "Rain on a window" && tweet.media.first?.duration == 5.005)
    }

    @Test(.enabled(if: SharedFixtures.isPresent, "../shared/fixtures is absent"))
    func recordedVideosPlayAnMP4() throws {
        var videos = 0
        for path in SharedFixtures.twitterFiles {
            var reader = try TweetFileReader(path: path)
            while let event = reader.next() {
                guard case .post(let tweet) = event else { continue }
                // Data recorded without `video_info` or `variants` (v2 pages asked without them) has a still only.
                for item in tweet.media where item.kind != .photo && item.playURL != nil {
                    videos += 1
                    #expect(item.playURL?.contains(".mp4") == true, "\(path): \(tweet.id)")
                }
            }
        }
        #expect(videos > 0, "python-twitter's search page has videos with video_info")
    }
}
