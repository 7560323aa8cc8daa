import CCurl
import CCurlShim
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The event loop thread's own state: the multi handle's transfers and every client's channel.
/// Created on that thread and touched only there (asserted, like swift-nio's `assertInEventLoop`);
/// other threads reach it only through `LoopInbox`.
final class CurlMultiLoop {
    private let inbox: LoopInbox
    private let multi: UnsafeMutableRawPointer
    private let curl: CurlLibrary.Functions
    private let owner = pthread_self()
    private var channels: [UInt64: CurlChannel] = [:]
    /// Longest sleep with nothing to do: curl's own timers and `curl_multi_wakeup` end it sooner.
    private static let idlePollMilliseconds: Int32 = 10_000

    init(inbox: LoopInbox) {
        self.inbox = inbox
        self.multi = inbox.multi.raw
        self.curl = inbox.curl
    }

    private func assertOnLoop(file: StaticString = #fileID, line: UInt = #line) {
        assert(pthread_equal(owner, pthread_self()) != 0, "curl multi handle touched off its loop thread",
               file: file, line: line)
    }

    /// Until `.stop`: commands, then curl's work, then a sleep on every transfer's socket.
    func run() {
        assertOnLoop()
        while true {
            for command in inbox.take() {
                if case .stop = command {
                    shutDown()
                    return
                }
                handle(command)
            }
            var running: Int32 = 0
            _ = curl.c.multi_perform(multi, &running)
            collectFinished()
            var ready: Int32 = 0
            _ = curl.c.multi_poll(multi, nil, 0, Self.idlePollMilliseconds, &ready)
        }
    }

    private func handle(_ command: LoopCommand) {
        switch command {
        case .start(let order):
            let channel = channels[order.channel] ?? {
                let made = CurlChannel(id: order.channel)
                channels[order.channel] = made
                return made
            }()
            if order.cancel.isCancelled {
                order.completion.resume(returning: .failure(.cancelled))
            } else if channel.current == nil {
                begin(order, on: channel)
            } else {
                channel.pending.append(order)
            }
        case .cancel(let transfer, let channelID):
            guard let channel = channels[channelID] else { return }
            if let current = channel.current, current.order.id == transfer {
                finish(channel, with: .failure(.cancelled))
            } else if let index = channel.pending.firstIndex(where: { $0.id == transfer }) {
                let order = channel.pending.remove(at: index)
                order.completion.resume(returning: .failure(.cancelled))
            }
        case .close(let channelID):
            guard let channel = channels[channelID] else { return }
            channel.closing = true
            retireIfDone(channel)
        case .stop:
            break
        }
    }

    /// Puts `order` on the channel's easy handle and the handle into the multi handle.
    private func begin(_ order: TransferOrder, on channel: CurlChannel) {
        assertOnLoop()
        if channel.easy == nil {
            guard let easy = CurlEasyHandle(curl: curl) else {
                return refuse(order, on: channel, CurlFailure(code: CURLE_FAILED_INIT, message: "curl_easy_init failed"))
            }
            // The channel's id, not a pointer: nothing to retain or release when a transfer ends.
            _ = intercom_curl_setopt_ptr(curl.table, easy.raw, CURLOPT_PRIVATE, UnsafeMutableRawPointer(bitPattern: UInt(channel.id)))
            channel.easy = easy
        }
        guard let easy = channel.easy else { return }
        let transfer = CurlTransfer(order: order, handle: easy.raw, curl: curl)
        if let failure = transfer.applyOptions() {
            transfer.detachOptions()
            return refuse(order, on: channel, failure)
        }
        let added = curl.c.multi_add_handle(multi, easy.raw)
        guard added == CURLM_OK else {
            transfer.detachOptions()
            let text = curl.text(added)
            return refuse(order, on: channel, CurlFailure(code: CURLE_FAILED_INIT, message: "curl_multi_add_handle: \(text)"))
        }
        channel.current = transfer
        inbox.running.add(1, ordering: .relaxed)
    }

    /// A transfer that never reached curl: answered at once, and the queue moves on.
    private func refuse(_ order: TransferOrder, on channel: CurlChannel, _ failure: CurlFailure) {
        order.completion.resume(returning: .failure(.setup(failure)))
        startNext(on: channel)
    }

    /// Every transfer curl says is done, with curl's result.
    private func collectFinished() {
        var left: Int32 = 0
        while let message = curl.c.multi_info_read(multi, &left) {
            var easy: UnsafeMutableRawPointer?
            var code = CURLE_OK
            guard intercom_curl_msg_done(message, &easy, &code) != 0, let easy else { continue }
            var tag: UnsafeMutableRawPointer?
            _ = intercom_curl_getinfo_ptr(curl.table, easy, CURLINFO_PRIVATE, &tag)
            let id = UInt64(UInt(bitPattern: tag))
            guard let channel = channels[id], let transfer = channel.current, transfer.handle == easy else { continue }
            finish(channel, with: transfer.outcome(code))
        }
    }

    /// Takes the channel's running transfer out of curl, answers its caller, and starts the next.
    private func finish(_ channel: CurlChannel, with result: TransferResult) {
        assertOnLoop()
        guard let transfer = channel.current else { return }
        // Removing a handle mid-transfer is how curl aborts one; its connection is closed, not reused.
        _ = curl.c.multi_remove_handle(multi, transfer.handle)
        transfer.detachOptions()
        channel.current = nil
        inbox.running.subtract(1, ordering: .relaxed)
        transfer.order.completion.resume(returning: result)
        startNext(on: channel)
    }

    private func startNext(on channel: CurlChannel) {
        let next = channel.takeNext { $0.completion.resume(returning: .failure(.cancelled)) }
        if let next {
            begin(next, on: channel)
        } else {
            retireIfDone(channel)
        }
    }

    /// A closed client's channel, once idle, takes its easy handle (and Digest state) with it.
    private func retireIfDone(_ channel: CurlChannel) {
        guard channel.closing, channel.isIdle else { return }
        channels.removeValue(forKey: channel.id)
        channel.easy = nil
    }

    /// The loop is released: every caller hears `cancelled`, then curl's state goes.
    private func shutDown() {
        for channel in channels.values {
            // The queue first, so finishing the running transfer starts nothing new.
            for order in channel.pending { order.completion.resume(returning: .failure(.cancelled)) }
            channel.pending.removeAll()
            finish(channel, with: .failure(.cancelled))
            channel.easy = nil
        }
        channels.removeAll()
        for command in inbox.take() {
            if case .start(let order) = command { order.completion.resume(returning: .failure(.cancelled)) }
        }
        inbox.closeMulti()
    }
}
