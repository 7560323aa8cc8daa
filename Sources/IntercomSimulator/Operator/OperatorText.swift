/// The fixed texts the real server sends: hard-coded Russian in its authorisation check, the rest from its English language file.
enum OperatorText {
    static let noAuthorization = "Ошибка авторизации"
    static let noToken = "Отсутствует токен авторизации"
    static let unauthorized = "Не авторизован"
    static let wrongPIN = "The PIN code was entered incorrectly"
    static let tooManyAttempts = "Maximum number of login attempts exceeded"
    static let deviceLimit = "Device limit per mobile number exceeded"
    static let alreadyShared = "Operation failed. Is the phone already in the list?"
    static let noRightToDelete = "Нет прав для удаления"
    /// `mobile.404` and `mobile.invalidPlateNumber` of the English language file.
    static let notFound = "Not found"
    static let invalidPlate = "Invalid license plate number"

    /// What a guest is told when `address/access` adds them, in the requester's language: the
    /// body of the message (`mobile.newAddressBody`; the inbox page shows bodies, not titles).
    static func newAddress(language: String) -> String {
        language.lowercased().hasPrefix("ru") ? "В вашу учётную запись добавлен новый адрес" : "A new address has been added to your account."
    }
}
