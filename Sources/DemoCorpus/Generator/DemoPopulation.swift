import Posts
import Twitter

/// The demo's accounts: a few well-known ones first (they are the most mentioned and most active), then people from
/// many cultures with unique screen names.
struct DemoPopulation: Sendable {
    private(set) var users: [Author] = []
    /// `@screenName` of each user, ready to go into a text.
    private(set) var handles: [TextPiece] = []
    private var taken = Set<String>()

    init(count: Int, random: inout SeededRandom) {
        users.reserveCapacity(count)
        for account in Names.wellKnown.prefix(count) {
            add(handle: account.handle, name: account.name)
        }
        while users.count < count {
            let person = Person(random: &random)
            add(handle: uniqueScreenName(person.handle, random: &random), name: person.name)
        }
    }

    private mutating func add(handle: String, name: String) {
        taken.insert(handle.lowercased())
        users.append(Author(handle: handle, name: name, profileImageURL: DemoAvatarPath.string(for: handle)))
        handles.append(TextPiece("@" + handle))
    }

    /// Screen names are unique ignoring case, as on Twitter: a taken one gets digits, within 15 characters.
    private func uniqueScreenName(_ wanted: String, random: inout SeededRandom) -> String {
        var candidate = String(wanted.prefix(15))
        while taken.contains(candidate.lowercased()) {
            let digits = String(random.int(in: 1...9999))
            candidate = String(wanted.prefix(15 - digits.count)) + digits
        }
        return candidate
    }
}

/// One made-up person: a display name in their own script, a screen name in ASCII.
private struct Person {
    let name: String
    let handle: String

    init(random: inout SeededRandom) {
        let culture = Names.cultures[Names.cultureChoice.pick(&random)]
        let given = random.element(of: culture.given)
        let family = random.element(of: culture.family)
        let displayName =
            culture.familyFirst
            ? family.display + culture.joiner + given.display : given.display + culture.joiner + family.display
        name = Self.decorated(displayName, random: &random)
        handle = Self.handle(given: given.ascii, family: family.ascii, random: &random)
    }

    /// Some people put emoji or flair in their names.
    private static func decorated(_ name: String, random: inout SeededRandom) -> String {
        guard random.chance(0.12) else { return name }
        return name + random.element(of: Names.flair)
    }

    private static func handle(given: String, family: String, random: inout SeededRandom) -> String {
        switch random.below(8) {
        case 0: given + family
        case 1: given + "_" + family
        case 2: capitalized(given) + capitalized(family)
        case 3: given + String(random.int(in: 1970...2009))
        case 4: String(given.prefix(1)) + family
        case 5: random.element(of: ["the", "real", "its", "hey"]) + capitalized(given)
        case 6: given + random.element(of: ["_dev", "codes", "_tw", "_jp", "_art", "_photo", "xo"])
        default: family + "_" + String(given.prefix(1))
        }
    }

    private static func capitalized(_ word: String) -> String {
        word.prefix(1).uppercased() + word.dropFirst()
    }
}

/// A name as shown and as it would be typed in a screen name.
private struct NamePart {
    let display: String
    let ascii: String

    init(_ display: String, _ ascii: String) {
        self.display = display
        self.ascii = ascii
    }

    init(_ ascii: String) {
        self.init(ascii.prefix(1).uppercased() + ascii.dropFirst(), ascii)
    }
}

private struct Culture {
    let weight: Double
    let given: [NamePart]
    let family: [NamePart]
    var familyFirst = false
    var joiner = " "
}

private enum Names {
    static let wellKnown: [(handle: String, name: String)] = [
        ("nasa", "NASA"), ("Stanford", "Stanford University"), ("SwiftLang", "Swift"), ("cs193p", "CS193p Stanford"),
        ("NASAWebb", "NASA Webb Telescope"), ("ESA", "European Space Agency"), ("TechNews", "Tech News Daily"),
        ("WorldNews", "World News 🌍"), ("CoffeeLab", "Coffee & Code Lab"), ("markup_club", "<Code/> Club"),
        ("RockRadio", "Rock & Roll Radio 📻"), ("tokyo_now", "いまの東京"), ("beijing_daily", "北京日报"),
        ("cairo_news", "أخبار القاهرة"), ("tlv_tech", "טק תל אביב"), ("OpenSourceFdn", "Open Source Foundation"),
        ("SpaceFan", "🚀 Space Fan 🌌"), ("x", "X"), ("Q", "Q"), ("_", "Underscore"), ("jo", "Jo"),
        ("a1_b2_c3_d4_e5f", "Fifteen Characters"), ("ParisMatchs", "Paris 🇫🇷"),
        ("Munchen_Events", "Veranstaltungen München"),
        ("seoul_music", "서울 뮤직 🎶"), ("MarsRover", "Mars Rover 🔴"), ("StanfordCS", "Stanford Computer Science"),
        ("WWDCfan", "Dub Dub Fan"), ("F1Updates", "F1 Updates 🏎️"), ("CatsOfX", "Cats 🐈‍⬛"),
    ]

    static let cultures = [
        Culture(weight: 55, given: latinGiven, family: latinFamily),
        Culture(weight: 12, given: accentedGiven, family: accentedFamily),
        Culture(weight: 8, given: japaneseGiven, family: japaneseFamily, familyFirst: true),
        Culture(weight: 7, given: chineseGiven, family: chineseFamily, familyFirst: true, joiner: ""),
        Culture(weight: 3, given: koreanGiven, family: koreanFamily, familyFirst: true, joiner: ""),
        Culture(weight: 9, given: arabicGiven, family: arabicFamily),
        Culture(weight: 6, given: hebrewGiven, family: hebrewFamily),
    ]

    static let cultureChoice = WeightedChoice(cultures.map(\.weight))

    static let flair = [
        " 🌸", " 🚀", " ✨", " 🏳️‍🌈", " 🇺🇦", " 👩‍💻", " | she/her", " 🐈", " ☕️", " 𝓓𝓮𝓿",
        """
         (on leave)
        """, " 🇯🇵",
    ]

    static let latinGiven = [
        "james", "mary", "john", "patricia", "robert", "jennifer", "michael", "linda", "david", "elizabeth",
        "william", "sarah", "emma", "olivia", "noah", "liam", "ava", "mia", "lucas", "ethan", "chloe", "grace",
        "henry", "jack", "leo", "nora", "ruby", "sam", "alex", "taylor", "jordan", "casey", "riley", "morgan",
        "priya", "arjun", "kwame", "amara", "diego", "maya",
    ].map(NamePart.init)

    static let latinFamily = [
        "smith", "johnson", "brown", "garcia", "miller", "davis", "wilson", "taylor", "anderson", "thomas",
        "moore", "martin", "lee", "walker", "hall", "young", "king", "wright", "scott", "green", "baker",
        "adams", "nelson", "hill", "campbell", "mitchell", "roberts", "carter", "evans", "turner", "patel",
        "nguyen", "kim", "okafor", "silva", "mensah", "osei", "fernandes",
    ].map(NamePart.init)

    static let accentedGiven = [
        NamePart("José", "jose"), NamePart("Zoë", "zoe"), NamePart("Chloé", "chloe"), NamePart("Renée", "renee"),
        NamePart("Søren", "soren"), NamePart("Björn", "bjorn"), NamePart("Łukasz", "lukasz"),
        NamePart("François", "francois"),
        NamePart("Mónica", "monica"), NamePart("Jürgen", "jurgen"), NamePart("Inés", "ines"),
        NamePart("Ștefan", "stefan"),
        NamePart("Đorđe", "djordje"), NamePart("Agnès", "agnes"), NamePart("Ήλιος", "ilios"),
        NamePart("Дмитрий", "dmitry"),
    ]

    static let accentedFamily = [
        NamePart("Álvarez", "alvarez"), NamePart("Müller", "muller"), NamePart("Brontë", "bronte"),
        NamePart("Núñez", "nunez"),
        NamePart("Dvořák", "dvorak"), NamePart("Østergaard", "ostergaard"), NamePart("Gonçalves", "goncalves"),
        NamePart("Lefèvre", "lefevre"), NamePart("Kovač", "kovac"), NamePart("Şahin", "sahin"),
        NamePart("Wójcik", "wojcik"),
        NamePart("Ibáñez", "ibanez"), NamePart("Papadopoulos", "papadopoulos"), NamePart("Иванов", "ivanov"),
    ]

    static let japaneseGiven = [
        NamePart("太郎", "taro"), NamePart("花子", "hanako"), NamePart("翔", "sho"), NamePart("陽菜", "hina"),
        NamePart("蓮", "ren"),
        NamePart("結衣", "yui"), NamePart("大翔", "hiroto"), NamePart("さくら", "sakura"), NamePart("ゆうき", "yuki"),
        NamePart("健", "ken"),
    ]

    static let japaneseFamily = [
        NamePart("山田", "yamada"), NamePart("佐藤", "sato"), NamePart("鈴木", "suzuki"), NamePart("高橋", "takahashi"),
        NamePart("田中", "tanaka"), NamePart("伊藤", "ito"), NamePart("渡辺", "watanabe"), NamePart("中村", "nakamura"),
        NamePart("小林", "kobayashi"), NamePart("𠮷田", "yoshida"),
    ]

    static let chineseGiven = [
        NamePart("伟", "wei"), NamePart("芳", "fang"), NamePart("娜", "na"), NamePart("敏", "min"), NamePart("静", "jing"),
        NamePart("磊", "lei"), NamePart("洋", "yang"), NamePart("艳", "yan"), NamePart("杰", "jie"), NamePart("婷", "ting"),
    ]

    static let chineseFamily = [
        NamePart("王", "wang"), NamePart("李", "li"), NamePart("张", "zhang"), NamePart("刘", "liu"), NamePart("陈", "chen"),
        NamePart("杨", "yang"), NamePart("黄", "huang"), NamePart("赵", "zhao"), NamePart("周", "zhou"),
        NamePart("吴", "wu"),
    ]

    static let koreanGiven = [
        NamePart("민준", "minjun"), NamePart("서연", "seoyeon"), NamePart("지우", "jiwoo"), NamePart("하은", "haeun"),
    ]

    static let koreanFamily = [
        NamePart("김", "kim"), NamePart("이", "lee"), NamePart("박", "park"), NamePart("최", "choi"),
    ]

    static let arabicGiven = [
        NamePart("محمد", "mohamed"), NamePart("أحمد", "ahmed"), NamePart("فاطمة", "fatima"), NamePart("علي", "ali"),
        NamePart("مريم", "maryam"), NamePart("يوسف", "youssef"), NamePart("ليلى", "layla"), NamePart("عمر", "omar"),
        NamePart("نور", "nour"), NamePart("خالد", "khaled"),
    ]

    static let arabicFamily = [
        NamePart("العلي", "alali"), NamePart("حسن", "hassan"), NamePart("منصور", "mansour"),
        NamePart("الحربي", "alharbi"),
        NamePart("سعيد", "saeed"), NamePart("خليل", "khalil"),
    ]

    static let hebrewGiven = [
        NamePart("דוד", "david"), NamePart("שרה", "sarah"), NamePart("יוסי", "yossi"), NamePart("נועה", "noa"),
        NamePart("מיכל", "michal"), NamePart("אבי", "avi"), NamePart("תמר", "tamar"), NamePart("יונתן", "yonatan"),
    ]

    static let hebrewFamily = [
        NamePart("כהן", "cohen"), NamePart("לוי", "levi"), NamePart("מזרחי", "mizrahi"), NamePart("פרץ", "peretz"),
        NamePart("ביטון", "biton"), NamePart("אברהם", "avraham"),
    ]
}
