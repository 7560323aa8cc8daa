import Foundation

/// What a panel's, an operator's or a door's name becomes in MQTT topics and Home Assistant
/// object ids: `[a-z0-9_-]` only (Home Assistant ignores a discovery topic with anything else).
///
/// Letters of other alphabets are transliterated the way Home Assistant's own `slugify` does it
/// (python-slugify: NFKD, then Unidecode's tables), so `Вход` is `vkhod` and `Двор` is `dvor`
/// instead of both being `____`. What is already ASCII keeps the rule it always had (letters,
/// digits, `-` and `_` kept, anything else `_`, runs not folded), so no existing topic moves.
/// A letter no table here knows becomes `u` and its code point (`大` → `u5927`): ugly, but two
/// different names never fold into one by it. Names that still meet are refused at load
/// (`MQTTNameCheck`).
public enum MQTTName {
    public static func slug(_ text: String) -> String {
        var result = ""
        // NFKD first, as python-slugify does: `й` is `и` + a breve, `ё` is `е` + a diaeresis, and
        // the marks are dropped, so `ё` reads `e` there too; `№` decomposes to `No`.
        for scalar in text.decomposedStringWithCompatibilityMapping.lowercased().unicodeScalars {
            if scalar.isASCII {
                let kept = CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_"
                result.unicodeScalars.append(kept ? scalar : "_")
            } else if scalar.properties.generalCategory == .nonspacingMark {
                continue
            } else if let latin = Transliteration.latin(scalar) {
                result += latin
            } else if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                result += "u" + String(scalar.value, radix: 16)
            } else {
                result += "_"
            }
        }
        return result.isEmpty ? "_" : result
    }
}

/// Unidecode's ASCII for the letters a name for a door is likely written in: the Cyrillic block
/// U+0400–U+045F and U+0490/U+0491 (Russian, Ukrainian, Belarusian, Serbian, Macedonian) and the
/// Latin-1 letters NFKD leaves whole. Lowercase only: `slug` lowercases first. Unidecode writes
/// `ъ` and `ь` as `'`, which python-slugify then removes; here they are empty at once.
enum Transliteration {
    static func latin(_ scalar: Unicode.Scalar) -> String? {
        switch scalar.value {
        case 0x430...0x44F: cyrillic[Int(scalar.value - 0x430)]
        case 0x450...0x45F: cyrillicExtra[Int(scalar.value - 0x450)]
        case 0x491: "g"
        default: latin1[scalar.value]
        }
    }

    /// а б в г д е ж з и й к л м н о п р с т у ф х ц ч ш щ ъ ы ь э ю я (Unidecode's x004, 0x430–0x44F).
    private static let cyrillic = ["a", "b", "v", "g", "d", "e", "zh", "z", "i", "i", "k", "l", "m", "n", "o", "p",
                                   "r", "s", "t", "u", "f", "kh", "ts", "ch", "sh", "shch", "", "y", "", "e", "iu", "ia"]

    /// ѐ ё ђ ѓ є ѕ і ї ј љ њ ћ ќ ѝ ў џ (0x450–0x45F), for those NFKD leaves whole.
    private static let cyrillicExtra = ["ie", "io", "dj", "gj", "ie", "dz", "i", "yi", "j", "lj", "nj", "tsh", "kj", "i", "u", "dzh"]

    /// ß æ ð ø þ (Unidecode's x000).
    private static let latin1: [UInt32: String] = [0xDF: "ss", 0xE6: "ae", 0xF0: "d", 0xF8: "o", 0xFE: "th"]
}
