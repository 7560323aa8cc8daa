import Foundation
import IntercomBase

/// Finds this process's own file descriptors for sockets bound to given local ports, by
/// matching socket inodes from /proc/net/{udp,tcp}[6] with the links in /proc/self/fd.
/// liblinphone does not hand out its SIP sockets; watching them lets the linphone thread
/// sleep long when idle yet wake the moment an INVITE arrives.
enum SocketInventory {
    static func descriptors(for addresses: [ListenAddress]) -> [Int32] {
        var inodes = Set<String>()
        for address in addresses {
            let tables = address.transport == .udp ? ["udp", "udp6"] : ["tcp", "tcp6"]
            for table in tables {
                inodes.formUnion(socketInodes(table: "/proc/net/\(table)", port: address.port,
                                              listeningOnly: address.transport != .udp))
            }
        }
        guard !inodes.isEmpty,
              let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") else { return [] }
        var found: [Int32] = []
        for entry in entries {
            guard let fd = Int32(entry),
                  let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(entry)"),
                  target.hasPrefix("socket:["), target.hasSuffix("]") else { continue }
            let inode = String(target.dropFirst("socket:[".count).dropLast())
            if inodes.contains(inode) { found.append(fd) }
        }
        return found.sorted()
    }

    /// Inodes of sockets in one /proc/net table whose local port is `port` (TCP: only listeners).
    static func socketInodes(table path: String, port: Int, listeningOnly: Bool) -> Set<String> {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        let hexPort = String(format: "%04X", port)
        var inodes = Set<String>()
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
            guard fields.count > 9, fields[1].hasSuffix(":\(hexPort)") else { continue }
            if listeningOnly && fields[3] != "0A" { continue }
            inodes.insert(String(fields[9]))
        }
        return inodes
    }
}
