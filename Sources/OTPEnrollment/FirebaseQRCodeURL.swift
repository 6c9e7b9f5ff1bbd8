// Stand-in until OTPURI's OTPAuthURI.firebaseQRCodeURL lands on main; then this forwards to it.
enum FirebaseQRCodeURL {
    static func make(sharedSecretKey: String, accountName: String, issuer: String, hashingAlgorithm: String, codeLength: Int) -> String {
        guard !hashingAlgorithm.isEmpty, codeLength > 0 else { return "" }
        return "otpauth://totp/\(issuer):\(accountName)?secret=\(sharedSecretKey)&issuer=\(issuer)&algorithm=\(hashingAlgorithm)&digits=\(codeLength)"
    }
}
