#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H

/* libpng's simplified API is used, to write (png_image_write_to_memory, OTPQR) and to read
   (png_image_begin_read_from_memory and png_image_finish_read, OTPQRScan): it reports failure
   through its return value instead of longjmp, which Swift cannot catch. */
#include <png.h>

static inline png_uint_32 CPNG_image_version(void) { return PNG_IMAGE_VERSION; }
static inline png_uint_32 CPNG_format_gray(void) { return PNG_FORMAT_GRAY; }
static inline png_uint_32 CPNG_image_flag_fast(void) { return PNG_IMAGE_FLAG_FAST; }

/* An upper bound of the PNG size, so that one png_image_write_to_memory call suffices. */
static inline png_alloc_size_t CPNG_image_png_size_max(const png_image *image) {
    return PNG_IMAGE_PNG_SIZE_MAX(*image);
}

#endif
