import IntercomBase

extension OperatorError {
    /// What SmartYard's `address/access` answers (200, as `data`) when someone who is not the flat's
    /// owner tries to remove another phone (server/mobile/address/access.php); a fixed text, not i18n.
    public static let noRightToDelete = "Нет прав для удаления"

    /// The server's "only the owner may remove a guest": asking again changes nothing, so a
    /// removal that met it is over, not to be retried.
    public var isOwnerOnlyRefusal: Bool {
        serverText?.contains(Self.noRightToDelete) == true
    }
}
