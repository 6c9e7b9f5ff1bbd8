internal import Glibc

/// How email-and-password accounts work: the hash's cost, what a password must be, and what a
/// failed sign-in tells the caller.
public struct PasswordSettings: Sendable, Hashable {
    /// The cost of new password hashes; a hash made at other parameters is re-hashed at these on
    /// its owner's next successful sign-in.
    public var hashParameters: PasswordHashParameters
    /// The fewest characters a password may have (Firebase's 6 by default); shorter ones are
    /// refused with `weakPassword`.
    public var minimumLength: Int
    /// On (the default, as in new Firebase projects), an unknown email and a wrong password are
    /// one error, `invalidCredential` (`INVALID_LOGIN_CREDENTIALS`), and take the same time, so a
    /// sign-in form cannot be used to find out which addresses have accounts. Off, they are
    /// `userNotFound` and `wrongPassword`.
    public var emailEnumerationProtection: Bool
    /// Failed password sign-ins (wrong passwords and unknown addresses) allowed from one source
    /// (the client address a host passes as `source`) per ``sourceWindow``, counted in a token
    /// bucket; beyond it the source is refused with `tooManyRequests` until the bucket has room,
    /// whatever account it tries. Success does not reset it, so one valid account does not let a
    /// source guess at the others.
    public var maximumFailuresPerSource: Int
    /// The seconds over which ``maximumFailuresPerSource`` failures are allowed: the bucket holds
    /// that many and drains one every `sourceWindow / maximumFailuresPerSource` seconds.
    public var sourceWindow: Int64
    /// Seconds a source stays known to an account after a correct password from it (30 days by
    /// default). Wrong passwords from a known source count and lock apart from everyone else's,
    /// so that strangers who keep an address locked with wrong passwords do not lock out its
    /// owner signing in from where they did before.
    public var knownSourceLifetime: Int64
    /// The most password hashes and checks one service runs at once, on threads of their own
    /// rather than the cooperative pool: by default one fewer than the cores (at least one), so
    /// that a flood of password requests leaves a core for everything else.
    public var maximumConcurrentHashes: Int
    /// The most password requests waiting for a place among ``maximumConcurrentHashes``; one more
    /// is refused at once with `tooManyRequests`, so that a flood costs no memory either.
    public var maximumWaitingHashes: Int
    /// The Firebase projects whose password hashes imported users sign in with
    /// (``FirebaseHashConfig``), until their first sign-in re-hashes them; none by default.
    public var firebaseHashConfigs: [FirebaseHashConfig]
    /// The keys users imported with HMAC hashes were hashed under (``HMACImportKey``), which their
    /// first sign-ins check before re-hashing in OTPKit's form.
    public var hmacImportKeys: [HMACImportKey]

    /// One fewer than the cores online, at least one.
    public static var defaultConcurrentHashes: Int {
        max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))) - 1)
    }

    /// Settings.
    public init(
        hashParameters: PasswordHashParameters = .default,
        minimumLength: Int = 6,
        emailEnumerationProtection: Bool = true,
        maximumFailuresPerSource: Int = 100,
        sourceWindow: Int64 = 3600,
        knownSourceLifetime: Int64 = 30 * 86_400,
        maximumConcurrentHashes: Int = PasswordSettings.defaultConcurrentHashes,
        maximumWaitingHashes: Int = 64,
        firebaseHashConfigs: [FirebaseHashConfig] = [],
        hmacImportKeys: [HMACImportKey] = []
    ) {
        self.hashParameters = hashParameters
        self.minimumLength = minimumLength
        self.emailEnumerationProtection = emailEnumerationProtection
        self.maximumFailuresPerSource = maximumFailuresPerSource
        self.sourceWindow = sourceWindow
        self.knownSourceLifetime = knownSourceLifetime
        self.maximumConcurrentHashes = maximumConcurrentHashes
        self.maximumWaitingHashes = maximumWaitingHashes
        self.firebaseHashConfigs = firebaseHashConfigs
        self.hmacImportKeys = hmacImportKeys
    }
}

extension PasswordSettings {
    /// The hasher of these settings: new hashes at ``hashParameters``, and the imported ones of
    /// ``firebaseHashConfigs`` and ``hmacImportKeys`` checked.
    var hasher: PasswordHasher {
        PasswordHasher(parameters: hashParameters, firebaseHashConfigs: firebaseHashConfigs, hmacImportKeys: hmacImportKeys)
    }
}
