import Foundation

/// How doors are opened, which depends on the product line, not the exact model.
public enum PanelFamily: String, Sendable {
    /// Multi-apartment panels: `intercom_cgi` maindoor/altdoor/light.
    case dks
    /// Single-subscriber panels (DS06, DK103M, ALP-600): `alarmout_cgi` relays.
    case ds

    /// Family from `systeminfo_cgi` `DeviceModel`, or nil when the name says nothing
    /// and the panel has to be probed. Unknown models are never refused.
    public init?(deviceModel: String) {
        var model = deviceModel.trimmingCharacters(in: .whitespaces).uppercased()
        if let rev = model.range(of: "_REV") { model = String(model[..<rev.lowerBound]) }
        if model.hasPrefix("DKS") {
            self = .dks
        } else if model.hasPrefix("DS") || model.hasPrefix("DK") || model.hasPrefix("ALP") {
            self = .ds
        } else {
            return nil
        }
    }
}
