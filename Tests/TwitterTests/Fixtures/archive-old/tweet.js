window.YTD.tweet.part0 = [
  {
    "retweeted" : false,
    "source" : "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
    "entities" : {
      "hashtags" : [
        {
          "text" : "books",
          "indices" : [
            "38",
            "44"
          ]
        }
      ],
      "symbols" : [],
      "user_mentions" : [],
      "urls" : [
        {
          "url" : "https://t.co/0ldArch1v3",
          "expanded_url" : "https://books.example.org/list",
          "display_url" : "books.example.org/list",
          "indices" : [
            "14",
            "37"
          ]
        }
      ]
    },
    "display_text_range" : [
      "0",
      "44"
    ],
    "favorite_count" : "3",
    "id_str" : "948027084108754945",
    "truncated" : false,
    "retweet_count" : "1",
    "id" : "948027084108754945",
    "created_at" : "Tue Jan 02 03:04:05 +0000 2018",
    "favorited" : false,
    "full_text" : "Reading list: https://t.co/0ldArch1v3 #books",
    "lang" : "en"
  },
  {
    "retweeted" : false,
    "source" : "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
    "entities" : {
      "hashtags" : [
        {
          "text" : "2018",
          "indices" : [
            "33",
            "38"
          ]
        }
      ],
      "symbols" : [],
      "user_mentions" : [
        {
          "screen_name" : "old_friend",
          "name" : "Old Friend",
          "id" : "3030303031",
          "id_str" : "3030303031",
          "indices" : [
            "15",
            "26"
          ]
        }
      ],
      "urls" : []
    },
    "display_text_range" : [
      "0",
      "38"
    ],
    "favorite_count" : "3",
    "id_str" : "947618374349778946",
    "truncated" : false,
    "retweet_count" : "1",
    "id" : "947618374349778946",
    "created_at" : "Mon Jan 01 00:00:01 +0000 2018",
    "favorited" : false,
    "full_text" : "Happy new year @old_friend &lt;3 #2018",
    "lang" : "en"
  }
]