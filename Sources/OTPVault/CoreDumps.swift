internal import CKeyutils

/// Keeps decrypted secrets out of core dumps and away from other processes' debuggers.
package enum CoreDumps {
    /// Marks the process not dumpable (`prctl(PR_SET_DUMPABLE, 0)`): no core file, and no
    /// `ptrace` attach by other processes of the same user, from before the first secret is read
    /// until the process ends.
    package static func disable() {
        _ = CKeyutils_disable_core_dumps()
    }
}
