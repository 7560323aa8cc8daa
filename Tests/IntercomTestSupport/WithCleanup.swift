/// Runs `body`, then awaits `cleanup` whether `body` returned or threw, so a test's phones,
/// processes and ports are gone before the next test starts. (`defer { Task { … } }` only
/// *started* the cleanup, and the next test could meet what was left.)
package func withCleanup<T>(_ cleanup: () async -> Void, _ body: () async throws -> T) async throws -> T {
    let result: T
    do {
        result = try await body()
    } catch {
        await cleanup()
        throw error
    }
    await cleanup()
    return result
}
