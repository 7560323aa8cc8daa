import CLinphone

/// liblinphone 5.1 keeps a LinphoneCallLog for every call the core has ever had: with a call-log
/// database set, `linphone_core_store_call_log` inserts a row into `call-history.db` *and* prepends
/// a reference to the core's in-memory list, with no cap (`[misc] history_max_size` only trims the
/// list on the path without a database). A concierge desk's daemon grew by several KB per call,
/// and the file by a row per call, for good. Nothing here reads call history (the journal is ours),
/// so each ended call's log is dropped as soon as the call is released.
extension LinphoneCoreDriver {
    /// Forgets the logs of ended calls, in memory and in `call-history.db`. Calls still running
    /// have no log in the list yet (liblinphone stores it when the call terminates), and
    /// `linphone_core_clear_call_logs` unrefs only what the list holds, so this is safe at any time.
    func forgetCallLogs() {
        linphone_core_clear_call_logs(core)
    }

    /// How many call logs the core holds (tests: it must not grow with calls handled).
    var heldCallLogs: Int {
        Int(bctbx_list_size(linphone_core_get_call_logs(core)))
    }
}

extension Phone {
    /// The core's call-log count, read on the linphone thread (tests).
    func heldCallLogs() async throws -> Int {
        try await perform { $0.heldCallLogs }
    }
}
