import Foundation
import IntercomBase
#if canImport(Glibc)
import Glibc
#endif

/// One hook program: started as every child of ours is (`ChildProcess`: no shell, its own process
/// group, default signals, descriptors 0-2 only), with its stdout onto the daemon's stderr (stdout
/// carries the event stream), and waited for with a deadline.
enum HookProcess {
    static func spawn(program: String, arguments: [String], environment: [String: String]) -> Result<pid_t, ChildProcessError> {
        ChildProcess.spawn(program: program, arguments: arguments, environment: environment, stdout: 2)
    }

    /// Waits for `pid`; at `timeout` sends SIGTERM to its group, SIGKILL after `grace`. A cancelled
    /// wait counts as a timeout reached now (the owner is going away): the hook is ended, and still
    /// reaped, without the loop spinning on a sleep that returns at once.
    static func wait(_ pid: pid_t, timeout: Duration, grace: Duration = .seconds(2)) async -> HookOutcome {
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        var terminated = false
        var killDeadline = deadline
        while true {
            var status: Int32 = 0
            let result = waitpid(pid, &status, WNOHANG)
            if result == pid {
                if terminated { return .timedOut }
                // WIFEXITED / WEXITSTATUS / WTERMSIG are macros Swift cannot see.
                let signal = status & 0x7f
                return signal == 0 ? .exited((status >> 8) & 0xff) : .signalled(signal)
            }
            if result < 0 && errno != EINTR { return terminated ? .timedOut : .exited(-1) }
            let now = clock.now
            if !terminated && (now >= deadline || Task.isCancelled) {
                kill(-pid, SIGTERM)
                terminated = true
                killDeadline = now.advanced(by: grace)
            } else if terminated && now >= killDeadline {
                kill(-pid, SIGKILL)
                killDeadline = now.advanced(by: .seconds(3600))
            }
            await pause(milliseconds: 20)
        }
    }

    /// A sleep that cancellation does not cut short, so that a cancelled wait polls at the same pace.
    private static func pause(milliseconds: Int) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { done.resume() }
        }
    }
}
