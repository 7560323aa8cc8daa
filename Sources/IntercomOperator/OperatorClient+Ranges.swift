import Foundation
import IntercomBase

extension OperatorClient {
    /// What camera `cameraId`'s recording keeps (`cctv/ranges`): the server asks its DVR each time.
    public func archiveRanges(cameraId: String) async throws(OperatorError) -> OperatorArchiveRanges {
        guard let ranges = OperatorArchiveRanges.parse(try await call("cctv/ranges", [("cameraId", .id(cameraId))])) else {
            throw shape("the archive ranges")
        }
        return ranges
    }
}
