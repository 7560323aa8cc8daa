/// A desk of a site and who is on duty there: where a forked call was taken (`call_ended`'s
/// `desk` and `operator`, "answered at B (anna)" on the screens).
public struct SiteDeskRef: Sendable, Equatable {
    public var desk: String
    public var operatorName: String?

    public init(desk: String, operatorName: String?) {
        self.desk = desk
        self.operatorName = operatorName
    }

    /// "B (anna)", or "B" when nobody is named on duty there.
    public var text: String { operatorName.map { "\(desk) (\($0))" } ?? desk }
}
