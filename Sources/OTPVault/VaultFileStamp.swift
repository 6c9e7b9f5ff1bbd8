internal import Glibc

/// Which version of a vault file a snapshot describes. Every save renames a new file over the
/// vault, so the inode changes with every save, and the size and modification time guard against
/// a freed inode number coming back.
package struct VaultFileStamp: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: UInt64
    var modificationSeconds: UInt64
    var modificationNanoseconds: UInt64

    /// The stamp of the file at `path` now, or `nil` when there is none.
    package init?(path: String) {
        var status = stat()
        guard stat(path, &status) == 0 else { return nil }
        self.init(status)
    }

    init(_ status: stat) {
        self.init(
            device: UInt64(status.st_dev),
            inode: UInt64(status.st_ino),
            size: UInt64(status.st_size),
            modificationSeconds: UInt64(bitPattern: Int64(status.st_mtim.tv_sec)),
            modificationNanoseconds: UInt64(bitPattern: Int64(status.st_mtim.tv_nsec))
        )
    }

    init(device: UInt64, inode: UInt64, size: UInt64, modificationSeconds: UInt64, modificationNanoseconds: UInt64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modificationSeconds = modificationSeconds
        self.modificationNanoseconds = modificationNanoseconds
    }
}
