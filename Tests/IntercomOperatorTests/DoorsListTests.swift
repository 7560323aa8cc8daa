import Foundation
import Testing
import IntercomBase
@testable import IntercomCLI

/// `intercom doors` lists every output `intercom open` takes by name, and `open` takes each id it lists (issue 25).
@Suite struct DoorsListTests {
    @Test func everyListedPanelOutputOpens() throws {
        let panel = PanelConfig(name: "porch", url: "http://127.0.0.1:9")
        let config = IntercomConfig(panels: [panel], daemon: .defaults(environment: [:]))
        let entries = DoorsCommand.panelOutputs(panel)
        #expect(entries.map(\.id) == ["porch", "porch:alt", "porch:light"])
        for (entry, expected) in zip(entries, [Door.main, .alt, .light]) {
            guard case .success(.panel(let found, let door)) = OpenCommand.resolve(entry.id, door: .main, doorGiven: false,
                                                                                   config: config) else {
                Issue.record("open does not take \(entry.id)")
                continue
            }
            #expect(found.name == "porch" && door == expected, "\(entry.id)")
        }
    }
}
