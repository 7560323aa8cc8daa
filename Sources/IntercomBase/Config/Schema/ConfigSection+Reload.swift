/// SIGHUP, from the table: live keys are copied into the running config, changed restart keys are
/// named in a line for the log, per-command keys are left alone.
extension ConfigSection {
    func reload(running: inout IntercomConfig, reloaded: IntercomConfig, notApplied: inout [String]) {
        let daemonUsesIt = keys.contains { $0.reload != .perCommand }
        guard daemonUsesIt else { return }
        switch place {
        case .single(let path):
            let (merged, changed) = merge(running[keyPath: path], reloaded[keyPath: path])
            running[keyPath: path] = merged
            if !changed.isEmpty {
                notApplied.append("[\(kind)] \(changed.joined(separator: ", ")) changed: restart the daemon to apply")
            }
        case .named(let path, let namePath):
            func find(_ name: String, in values: [Value]) -> Value? {
                values.first { $0[keyPath: namePath].lowercased() == name.lowercased() }
            }
            var updated = running[keyPath: path]
            for (index, old) in updated.enumerated() {
                let name = old[keyPath: namePath]
                guard let new = find(name, in: reloaded[keyPath: path]) else {
                    notApplied.append("\(kind) \(name) was removed: restart the daemon to drop it")
                    continue
                }
                let (merged, changed) = merge(old, new)
                updated[index] = merged
                if !changed.isEmpty {
                    notApplied.append("\(kind) \(name): \(changed.joined(separator: ", ")) changed: restart the daemon to apply")
                }
            }
            for new in reloaded[keyPath: path] where find(new[keyPath: namePath], in: running[keyPath: path]) == nil {
                notApplied.append("\(kind) \(new[keyPath: namePath]) is new: restart the daemon to add it")
            }
            running[keyPath: path] = updated
        }
    }

    /// The running value with the live keys of the reloaded one, and the restart keys that differ.
    /// A difference no key accounts for (a property the table lacks) counts as needing a restart,
    /// so a forgotten row is reported rather than silently dropped.
    private func merge(_ old: Value, _ new: Value) -> (Value, [String]) {
        var merged = old
        var changed: [String] = []
        for key in keys where key.differs(old, new) {
            switch key.reload {
            case .live: key.apply?(&merged, new)
            case .restart: changed.append(key.name)
            case .perCommand: break
            }
        }
        // With no restart key changed, every difference was live and has been copied.
        if changed.isEmpty, merged != new, !keys.contains(where: { $0.reload == .perCommand }) {
            changed.append("a setting")
        }
        return (merged, changed)
    }
}
