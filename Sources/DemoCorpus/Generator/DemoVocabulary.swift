/// What demo tweets are made of. Lists are arrays, never dictionaries or sets, so every process walks them in the
/// same order and the same seed gives the same corpus.
struct DemoVocabulary: Sendable {
    static let shared = DemoVocabulary()

    /// Most popular first, without `#`; unique case-insensitively.
    let hashtags: [String]
    /// `#tag` as written: canonical, lower-cased and upper-cased, so popularity has case variants to fold.
    let hashtagSpellings: [[TextPiece]]
    let languages: [Language]
    let languageChoice: WeightedChoice
    let emoji = DemoVocabulary.pieces(Words.emoji)
    let joinedEmoji = DemoVocabulary.pieces(Words.joinedEmoji)
    let fancy = DemoVocabulary.pieces(Words.fancy)
    let sites = Words.sites
    let slugWords = Words.slugWords
    let imageSizes = Words.imageSizes

    private init() {
        hashtags = Self.rankedHashtags()
        hashtagSpellings = hashtags.map { tag in
            [tag, tag.lowercased(), tag.uppercased()].map { TextPiece("#" + $0) }
        }
        languages = Words.languages.map {
            Language(sentences: Self.pieces($0.sentences), separator: TextPiece($0.separator))
        }
        languageChoice = WeightedChoice(Words.languages.map(\.weight))
    }

    /// The hand-picked tags first, then compounds until there are a few hundred, skipping any already present.
    private static func rankedHashtags() -> [String] {
        var tags = Words.hashtags
        var taken = Set(tags.map { $0.lowercased() })
        for suffix in Words.hashtagSuffixes {
            for stem in Words.hashtagStems where taken.insert((stem + suffix).lowercased()).inserted {
                tags.append(stem + suffix)
            }
        }
        return Array(tags.prefix(320))
    }

    private static func pieces(_ strings: [String]) -> [TextPiece] {
        strings.map(TextPiece.init)
    }

    struct Language: Sendable {
        let sentences: [TextPiece]
        /// A space between sentences, or none for Chinese and Japanese.
        let separator: TextPiece
    }

    /// A website links go to, and the shape of its paths.
    struct Site: Sendable {
        enum Path: Sendable {
            case slug, number, videoID
        }
        let base: String
        let path: Path
    }
}

/// The raw lists.
private enum Words {
    static let hashtags = [
        "stanford", "swift", "SwiftUI", "nasa", "WWDC", "iOS", "cs193p", "Mars", "AI", "opensource",
        "coffee", "photography", "travel", "music", "東京", "100DaysOfCode", "Artemis", "climate", "design", "space",
        "rustlang", "linux", "webdev", "JavaScript", "python", "MachineLearning", "astronomy", "JWST", "moon",
        "science",
        "tech", "startup", "news", "worldcup", "NBA", "F1", "cycling", "running", "yoga", "food",
        "ramen", "sushi", "pizza", "vegan", "cats", "dogs", "nature", "sunset", "hiking", "beach",
        "art", "anime", "manga", "gaming", "nintendo", "books", "reading", "writing", "poetry", "film",
        "Oscars", "jazz", "kpop", "fashion", "weekend", "MondayMotivation", "mentalhealth", "education", "research",
        "math",
        "physics", "chemistry", "biology", "history", "architecture", "SanFrancisco", "PaloAlto", "NYC", "London",
        "Paris",
        "Berlin", "Tokyo", "Seoul", "TelAviv", "Dubai", "Cairo", "café", "München", "日本", "カフェ",
        "桜", "北京", "上海", "서울", "مصر", "القاهرة", "שבת", "ירושלים", "Ελλάδα", "Москва",
        "Xcode", "macOS", "visionOS", "Kotlin", "Android", "golang", "Docker", "Kubernetes", "cloud", "security",
        "privacy", "LLM", "robotics", "drones", "EV", "solar", "energy", "ocean", "rain", "snow",
    ]

    static let hashtagStems = [
        "Swift", "Space", "Code", "Photo", "Food", "Travel", "Music", "Tech", "Art", "Book",
        "Game", "Film", "City", "Sun", "Moon", "Garden", "Coffee", "Study", "Run", "Design",
    ]

    static let hashtagSuffixes = ["Life", "Day", "Tips", "Lovers", "Daily", "2025", "Time", "Goals", "Talk", "Club"]

    static let languages: [(weight: Double, separator: String, sentences: [String])] = [
        (70, " ", english),
        (7, "", japanese),
        (5, "", chinese),
        (2, " ", korean),
        (5, " ", arabic),
        (3, " ", hebrew),
        (5, " ", european),
        (3, " ", otherScripts),
    ]

    static let english = [
        "Just shipped a new release!", "Can't believe how fast this compiles now.", "Anyone else watching the launch?",
        "Coffee first, code later.", "Reading the proposal again, it finally clicked.", "What a day.",
        "Finally got the tests green.", "The view from the lab this morning is unreal.", "Hot take: tabs are fine.",
        "TIL you can pattern match on tuples.", "Lecture notes are up.", "Thread below 👇", "This made my week.",
        "Who's going this year?", "Rewrote it in a weekend and it's 10x faster.", "Office hours moved to Thursday.",
        "Not sure how I feel about this.", "Big news today.", "We're hiring!", "Look at this sunset.",
        "Our paper got accepted!", "Rain again. Of course.", "Live in 5 minutes.", "Slides from my talk:",
        "Q&A starts in ten minutes.", "R&D budgets > marketing budgets, as it should be.", "if x < 10 { ship() }",
        "<3 this community", "Salt & pepper is all you need.", "AT&T down again?", "Tom & Jerry marathon tonight.",
        "a < b && b > c, therefore… wait.", "Midterm grades -> posted.", "Best ramen in town, no contest.",
        "Three more days until the launch window opens.", "The rover sent back new pictures.",
        "Working from the library today.", "Pair programming > solo debugging at 2am.", "New blog post is up.",
        "That keynote was something else.", "Please stop asking me about the deadline.", "Snow day!",
        "The demo gods were kind today.", "Hello from the other side of the world.", "Ship it.",
        "Learning something new every single day.", "Bug fixed. Another bug appeared.", "Does anyone have a charger?",
        "Watching the game with friends tonight.", "First day on the new team!", "Great questions in class today.",
        "The telescope images are breathtaking.", "Marathon training, week 6.", "Just finished the book, wow.",
        "Tried the new café on campus.", "Who needs sleep anyway.", "Quick poll: light or dark mode?",
        "Happy Friday, everyone!", "The data says otherwise.", "Open source is a gift.", "Here's what I learned:",
    ]

    static let japanese = [
        "今日はいい天気ですね。", "新しいアプリをリリースしました！", "東京は雨です☔", "ありがとうございます！",
        "週末はプログラミング。", "ラーメン食べたい🍜", "桜が満開です🌸", "𠮷野家で昼ごはん。", "勉強会に参加しました。",
        "明日は早起きしないと。",
    ]

    static let chinese = [
        "今天的发布会太精彩了！", "我在学习编程。", "周末愉快！", "这个功能真好用。", "北京今天下雪了❄️", "大家早上好。",
        "终于完成了这个项目。", "𠀋这个字很少见。",
    ]

    static let korean = ["오늘 날씨 좋네요.", "감사합니다!", "새 앨범 최고예요 🎶", "주말에 만나요."]

    static let arabic = [
        "مرحبا بالعالم", "صباح الخير يا أصدقاء", "هذا رائع جدا!", "أتعلم البرمجة اليوم.", "شكرا لكم جميعا",
        "الطقس جميل اليوم ☀️",
    ]

    static let hebrew = ["שלום עולם", "בוקר טוב לכולם!", "זה ממש מגניב.", "לומדת לתכנת היום.", "שבת שלום 🕯️"]

    static let european = [
        "Ça marche très bien !", "¡Qué día tan bonito!", "Schöne Grüße aus München.", "Früh übt sich.",
        "Olá, tudo bem?", "Buongiorno a tutti ☕", "Dziękuję bardzo!", "Tack så mycket, Göteborg!",
    ]

    static let otherScripts = ["Привет всем!", "Καλημέρα σε όλους.", "नमस्ते दुनिया", "สวัสดีครับ", "Xin chào các bạn!"]

    static let emoji = [
        "🚀", "🎉", "❤️", "😂", "🔥", "👍", "🙏", "✨", "💯", "😍", "🤔", "👀", "☕️", "🌸", "⚡️", "🐦", "🍕", "🎶", "😭", "🥳",
        "👍🏽", "👋🏻", "🙌🏾", "💪🏿", "1️⃣", "🇯🇵", "🇺🇸", "🇫🇷", "🇧🇷", "🇮🇱", "🇸🇦", "🇨🇳", "🇩🇪", "🇺🇦", "🇰🇷",
    ]

    /// Zero-width-joiner sequences and tag flags: one visible character, many scalars.
    static let joinedEmoji = [
        "👩‍💻", "👨‍💻", "🧑‍🚀", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🏴‍☠️", "👩🏽‍🔬", "🧑🏿‍🎨", "❤️‍🔥", "🐻‍❄️", "🏴󠁧󠁢󠁳󠁣󠁴󠁿",
    ]

    /// Mathematical alphanumerics: letters outside the Basic Multilingual Plane.
    static let fancy = ["𝓗𝓲", "𝕊𝕨𝕚𝕗𝕥", "𝐍𝐞𝐰𝐬", "𝔉𝔯𝔢𝔢", "𝙃𝙚𝙡𝙡𝙤", "𝒲𝑜𝓌", "𠮷"]

    static let sites: [DemoVocabulary.Site] = [
        .init(base: "https://www.swift.org/blog/", path: .slug),
        .init(base: "https://developer.apple.com/documentation/", path: .slug),
        .init(base: "https://en.wikipedia.org/wiki/", path: .slug),
        .init(base: "https://www.nasa.gov/missions/", path: .slug),
        .init(base: "https://news.stanford.edu/stories/", path: .slug),
        .init(base: "https://github.com/swiftlang/swift/pull/", path: .number),
        .init(base: "https://www.youtube.com/watch?v=", path: .videoID),
        .init(base: "https://www.bbc.co.uk/news/articles/", path: .number),
        .init(base: "https://www3.nhk.or.jp/news/html/", path: .number),
        .init(base: "https://arxiv.org/abs/2401.", path: .number),
        .init(base: "https://medium.com/@smashtag/", path: .slug),
        .init(base: "https://www.theverge.com/", path: .slug),
    ]

    static let slugWords = [
        "swift", "concurrency", "launch", "mars", "rover", "campus", "update", "release", "notes", "moon",
        "design", "ocean", "climate", "music", "festival", "results", "guide", "how", "why", "new",
    ]

    /// Width × height in pixels: panoramas, wide, classic, square, portrait and tall.
    static let imageSizes: [(width: Int, height: Int)] = [
        (3000, 1000), (2350, 1000), (4096, 1024), (1920, 1080), (1280, 720), (1600, 1200), (1024, 768),
        (1500, 1000), (1080, 1080), (2048, 2048), (1080, 1350), (1536, 2048), (1000, 1500), (1080, 1920),
        (750, 1334), (600, 1800),
    ]
}
