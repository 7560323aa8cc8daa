import CLinphone

/// The elements of a bctoolbox list (liblinphone's `bctbx_list_t *`) as a Swift sequence of
/// opaque pointers, so nobody walks `next` by hand. It neither owns nor frees the list: whoever
/// got the list from liblinphone frees it as liblinphone's documentation says.
struct BctbxList: Sequence {
    let head: UnsafeMutablePointer<bctbx_list_t>?

    init(_ head: UnsafeMutablePointer<bctbx_list_t>?) {
        self.head = head
    }

    struct Iterator: IteratorProtocol {
        var node: UnsafeMutablePointer<bctbx_list_t>?

        mutating func next() -> OpaquePointer? {
            while let current = node {
                node = current.pointee.next
                if let data = current.pointee.data { return OpaquePointer(data) }
            }
            return nil
        }
    }

    func makeIterator() -> Iterator { Iterator(node: head) }
}
