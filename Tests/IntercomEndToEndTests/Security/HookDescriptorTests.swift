import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif
import IntercomTestSupport
import IntercomPhoneTestSupport

/// A hook run by the real daemon gets stdin, stdout and stderr and nothing else: not the SIP and
/// RTP sockets liblinphone makes without close-on-exec, not curl's connections, not the journal.
@Suite("security: hook descriptors", .removesTestFolders) struct HookDescriptorTests {
    @Test("a hook's open descriptors are only 0, 1, 2 (and the one its own listing opens)")
    func hookSeesOnlyStandardDescriptors() async throws {
        let hookDirectory = try TestDirectory(prefix: "intercom-hook-fds")
        let listing = hookDirectory.path + "/fds.txt"
        // exec: ls lists its own descriptors, which are exactly what the daemon handed the hook
        // plus the directory ls opens to read /proc/self/fd.
        let hook = try HookScript.create("#!/bin/sh\nexec ls -l /proc/self/fd > '\(listing)'\n",
                                              named: "fds.sh", in: hookDirectory)
        // A TCP listener and a panel make the daemon hold more sockets than the bare minimum.
        let daemon = try DaemonProcess(config: """
            [sip]
            listen = udp:127.0.0.1:0, tcp:127.0.0.1:0

            [panel entrance]
            url = http://127.0.0.1:9
            match = sip:100001@

            [hooks]
            on_started = \(hook)
            """, name: "hookfds")
        try await daemon.waitUntilStarted()
        await TestPatience.eventually(within: .seconds(10), every: .milliseconds(50)) {
            !((try? String(contentsOfFile: listing, encoding: .utf8)) ?? "").isEmpty
        }
        // ls writes its listing in one go at exit; a moment more covers a slow disk.
        try await Task.sleep(for: .milliseconds(200))
        let text = try String(contentsOfFile: listing, encoding: .utf8)
        // `lr-x------ 1 u g 64 Dec  1 11:33 3 -> /proc/123/fd`: the number is the word before "->".
        var open: [Int: String] = [:]
        for line in text.split(separator: "\n") {
            let words = line.split(separator: " ")
            guard let arrow = words.firstIndex(of: "->"), arrow > 0, let fd = Int(words[arrow - 1]) else { continue }
            open[fd] = words[(arrow + 1)...].joined(separator: " ")
        }
        #expect(Set(open.keys).isSuperset(of: [0, 1, 2]), "\(text)")
        let extra = open.filter { $0.key > 2 && !$0.value.hasPrefix("/proc/") }
        #expect(extra.isEmpty, "the hook inherited descriptors \(extra)\n\(text)")
        #expect(open.count <= 4, "\(text)")
        await daemon.stop()
    }
}
