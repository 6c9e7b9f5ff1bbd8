internal import CZBar

extension GreyImage {
    /// The payload of every QR code zbar finds, in its order.
    func qrCodes() throws(QRScanError) -> [[UInt8]] {
        guard let scanner = zbar_image_scanner_create() else { throw .scannerFailure("zbar could not create a scanner") }
        defer { zbar_image_scanner_destroy(scanner) }
        let settings: [(zbar_symbol_type_t, zbar_config_t, Int32)] = [
            (ZBAR_NONE, ZBAR_CFG_ENABLE, 0),
            (ZBAR_QRCODE, ZBAR_CFG_ENABLE, 1),
            // The payload as the symbol holds it: without this zbar guesses a character set and
            // converts to UTF-8, which changes any byte that is not ASCII.
            (ZBAR_QRCODE, ZBAR_CFG_BINARY, 1),
            // Scan the negative when nothing is found: codes drawn light on dark, as dark-mode apps do.
            (ZBAR_NONE, ZBAR_CFG_TEST_INVERTED, 1),
        ]
        for (symbology, setting, value) in settings where zbar_image_scanner_set_config(scanner, symbology, setting, value) != 0 {
            throw .scannerFailure("zbar refused setting \(setting.rawValue) for symbology \(symbology.rawValue)")
        }
        guard let image = zbar_image_create() else { throw .scannerFailure("zbar could not create an image") }
        defer { zbar_image_destroy(image) }
        zbar_image_set_format(image, CZBar_format_y800())
        zbar_image_set_size(image, UInt32(width), UInt32(height))
        let (status, codes) = pixels.withUnsafeBytes { buffer in
            // No cleanup handler: the pixels stay Swift's, and zbar's pointer to them is removed
            // before they can go away.
            zbar_image_set_data(image, buffer.baseAddress, UInt(buffer.count), nil)
            defer { zbar_image_set_data(image, nil, 0, nil) }
            let status = zbar_scan_image(scanner, image)
            return (status, status > 0 ? Self.qrCodes(in: image) : [])
        }
        guard status >= 0 else { throw .scannerFailure("zbar could not scan the image") }
        return codes
    }

    /// The data of the QR symbols zbar attached to `image`, copied before the image is destroyed.
    private static func qrCodes(in image: OpaquePointer) -> [[UInt8]] {
        var codes: [[UInt8]] = []
        var symbol = zbar_image_first_symbol(image)
        while let current = symbol {
            if zbar_symbol_get_type(current) == ZBAR_QRCODE, let data = zbar_symbol_get_data(current) {
                codes.append(Array(UnsafeRawBufferPointer(start: data, count: Int(zbar_symbol_get_data_length(current)))))
            }
            symbol = zbar_symbol_next(current)
        }
        return codes
    }
}
