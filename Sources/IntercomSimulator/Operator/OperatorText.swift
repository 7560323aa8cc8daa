import Foundation

/// The fixed texts the real server sends: hard-coded Russian in its authorisation check, the rest from
/// its language files (English here, except where the requester's `Accept-Language` is Russian).
enum OperatorText {
    static let noAuthorization = "Ошибка авторизации"
    static let noToken = "Отсутствует токен авторизации"
    static let unauthorized = "Не авторизован"
    static let wrongPIN = "The PIN code was entered incorrectly"
    static let tooManyAttempts = "Maximum number of login attempts exceeded"
    static let deviceLimit = "Device limit per mobile number exceeded"
    static let noRightToDelete = "Нет прав для удаления"

    /// `mobile.cantAddAddress`, in the requester's language.
    static func alreadyShared(_ language: String) -> String {
        isRussian(language) ? "Операция не выполнена. Телефон уже есть в списке?" : "Operation failed. Is the phone already in the list?"
    }

    /// `mobile.404`, in the requester's language.
    static func notFound(_ language: String) -> String { isRussian(language) ? "Не найдено" : "Not found" }

    /// `mobile.invalidPlateNumber`, in the requester's language.
    static func invalidPlate(_ language: String) -> String {
        isRussian(language) ? "Некорректный автомобильный номер" : "Invalid license plate number"
    }

    /// What a guest is told when `address/access` adds them, in the requester's language: the
    /// body of the message (`mobile.newAddressBody`; the inbox page shows bodies, not titles).
    static func newAddress(language: String) -> String {
        isRussian(language) ? "В вашу учётную запись добавлен новый адрес" : "A new address has been added to your account."
    }

    /// The server's `language()`: the first tag of `Accept-Language`, before any `;`, `,` or `-`
    /// ("ru-RU,ru;q=0.9" is ru), names the file `i18n/ru.json`; any language without a file, and
    /// none at all (the config's `language` is English here), reads the English one.
    static func isRussian(_ acceptLanguage: String) -> Bool {
        let first = acceptLanguage.split(separator: ";", omittingEmptySubsequences: false).first ?? ""
        let tag = first.split(separator: ",", omittingEmptySubsequences: false).first ?? ""
        return (tag.split(separator: "-", omittingEmptySubsequences: false).first ?? "").trimmingCharacters(in: .whitespaces) == "ru"
    }
}
