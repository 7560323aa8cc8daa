import Foundation

/// The fixed texts the real server sends: hard-coded Russian in its authorisation check, the rest from
/// its language files (English here, except where the requester's `Accept-Language` is Russian).
enum OperatorText {
    static let noAuthorization = "Ошибка авторизации"
    static let noToken = "Отсутствует токен авторизации"
    static let unauthorized = "Не авторизован"
    static let noRightToDelete = "Нет прав для удаления"

    /// `mobile.pinError` (`user/confirmCode`, a wrong PIN), in the requester's language.
    static func wrongPIN(_ language: String) -> String {
        isRussian(language) ? "Пин-код введен неверно" : "The PIN code was entered incorrectly"
    }

    /// `mobile.maxAttempts` (`user/confirmCode`, a wrong PIN past the fifth attempt).
    static func tooManyAttempts(_ language: String) -> String {
        isRussian(language) ? "Превышено максимальное число попыток ввода" : "Maximum number of login attempts exceeded"
    }

    /// `mobile.overLimit`: the language files have it, but no stored PHP of the login path says
    /// where it is sent; the simulator sends it past its own device limit (see `issueToken`).
    static func deviceLimit(_ language: String) -> String {
        isRussian(language) ? "Превышен лимит устройств на мобильный номер" : "Device limit per mobile number exceeded"
    }

    /// `responses.{code}Name` (= `…Message`): what `response(code)` without a text of its own
    /// writes as name and message, in the requester's language (the statuses the simulator sends).
    static func response(_ code: Int, _ language: String) -> String {
        guard isRussian(language) else { return OperatorEnvelope.reason(code) }
        switch code {
        case 400: return "Плохой, неверный запрос"
        case 401: return "Не авторизован"
        case 402: return "Необходима оплата"
        case 403: return "Запрещено"
        case 404: return "Не найдено"
        case 405: return "Метод не поддерживается"
        case 406: return "Неприемлемо"
        case 413: return "Полезная нагрузка слишком велика"
        case 422: return "Необрабатываемый экземпляр"
        case 429: return "Слишком много запросов"
        default: return OperatorEnvelope.reason(code)
        }
    }

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
