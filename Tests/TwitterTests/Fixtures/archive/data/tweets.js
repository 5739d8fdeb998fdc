window.YTD.tweets.part0 = [
  {
    "tweet" : {
      "edit_info" : {
        "initial" : {
          "editTweetIds" : [
            "1715635278443474945"
          ],
          "editableUntil" : "2023-10-21T08:45:00.000Z",
          "editsRemaining" : "5",
          "isEditEligible" : true
        }
      },
      "retweeted" : false,
      "source" : "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
      "entities" : {
        "hashtags" : [
          {
            "text" : "streetphotography",
            "indices" : [
              "33",
              "51"
            ]
          }
        ],
        "symbols" : [],
        "user_mentions" : [],
        "urls" : [],
        "media" : [
          {
            "id" : "1715635194557394944",
            "id_str" : "1715635194557394944",
            "indices" : [
              "52",
              "75"
            ],
            "media_url" : "http://pbs.twimg.com/media/F8aRcH1vEpHo.jpg",
            "media_url_https" : "https://pbs.twimg.com/media/F8aRcH1vEpHo.jpg",
            "url" : "https://t.co/Arch1vePh0",
            "display_url" : "pic.twitter.com/Arch1vePh0",
            "expanded_url" : "https://twitter.com/kit_archivist/status/1715635278443474945/photo/1",
            "type" : "photo",
            "sizes" : {
              "thumb" : {
                "w" : "150",
                "h" : "150",
                "resize" : "crop"
              },
              "small" : {
                "w" : "510",
                "h" : "680",
                "resize" : "fit"
              },
              "medium" : {
                "w" : "900",
                "h" : "1200",
                "resize" : "fit"
              },
              "large" : {
                "w" : "1536",
                "h" : "2048",
                "resize" : "fit"
              }
            }
          }
        ]
      },
      "display_text_range" : [
        "0",
        "75"
      ],
      "favorite_count" : "3",
      "id_str" : "1715635278443474945",
      "truncated" : false,
      "retweet_count" : "1",
      "id" : "1715635278443474945",
      "created_at" : "Sat Oct 21 07:45:00 +0000 2023",
      "favorited" : false,
      "full_text" : "Rainy market morning in Lisbon ☔ #streetphotography https://t.co/Arch1vePh0",
      "lang" : "en",
      "extended_entities" : {
        "media" : [
          {
            "id" : "1715635194557394944",
            "id_str" : "1715635194557394944",
            "indices" : [
              "52",
              "75"
            ],
            "media_url" : "http://pbs.twimg.com/media/F8aRcH1vEpHo.jpg",
            "media_url_https" : "https://pbs.twimg.com/media/F8aRcH1vEpHo.jpg",
            "url" : "https://t.co/Arch1vePh0",
            "display_url" : "pic.twitter.com/Arch1vePh0",
            "expanded_url" : "https://twitter.com/kit_archivist/status/1715635278443474945/photo/1",
            "type" : "photo",
            "sizes" : {
              "thumb" : {
                "w" : "150",
                "h" : "150",
                "resize" : "crop"
              },
              "small" : {
                "w" : "510",
                "h" : "680",
                "resize" : "fit"
              },
              "medium" : {
                "w" : "900",
                "h" : "1200",
                "resize" : "fit"
              },
              "large" : {
                "w" : "1536",
                "h" : "2048",
                "resize" : "fit"
              }
            }
          }
        ]
      },
      "possibly_sensitive" : false
    }
  },
  {
    "tweet" : {
      "edit_info" : {
        "initial" : {
          "editTweetIds" : [
            "1715490595926994946"
          ],
          "editableUntil" : "2023-10-20T23:10:05.000Z",
          "editsRemaining" : "5",
          "isEditEligible" : true
        }
      },
      "retweeted" : false,
      "source" : "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
      "entities" : {
        "hashtags" : [],
        "symbols" : [],
        "user_mentions" : [
          {
            "screen_name" : "future_me",
            "name" : "Future Me",
            "id" : "2020202020",
            "id_str" : "2020202020",
            "indices" : [
              "54",
              "64"
            ]
          }
        ],
        "urls" : []
      },
      "display_text_range" : [
        "0",
        "64"
      ],
      "favorite_count" : "3",
      "id_str" : "1715490595926994946",
      "truncated" : false,
      "retweet_count" : "1",
      "id" : "1715490595926994946",
      "created_at" : "Fri Oct 20 22:10:05 +0000 2023",
      "favorited" : false,
      "full_text" : "Notes to self: backups &amp; exports &gt; regrets. cc @future_me",
      "lang" : "en"
    }
  },
  {
    "tweet" : {
      "edit_info" : {
        "initial" : {
          "editTweetIds" : [
            "1714974675563474947"
          ],
          "editableUntil" : "2023-10-19T13:00:00.000Z",
          "editsRemaining" : "5",
          "isEditEligible" : true
        }
      },
      "retweeted" : false,
      "source" : "<a href=\"https://mobile.twitter.com\" rel=\"nofollow\">Twitter Web App</a>",
      "entities" : {
        "hashtags" : [],
        "symbols" : [],
        "user_mentions" : [
          {
            "screen_name" : "marta_field",
            "name" : "Marta Field",
            "id" : "1029384756",
            "id_str" : "1029384756",
            "indices" : [
              "3",
              "15"
            ]
          }
        ],
        "urls" : []
      },
      "display_text_range" : [
        "0",
        "42"
      ],
      "favorite_count" : "3",
      "id_str" : "1714974675563474947",
      "truncated" : false,
      "retweet_count" : "1",
      "id" : "1714974675563474947",
      "created_at" : "Thu Oct 19 12:00:00 +0000 2023",
      "favorited" : false,
      "full_text" : "RT @marta_field: Unicode is hard &amp; fun",
      "lang" : "en"
    }
  }
]