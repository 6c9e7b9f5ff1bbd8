#ifndef CPNG_SHIM_H
#define CPNG_SHIM_H

/* libpng's simplified write API (png_image_write_to_memory) is used: it reports failure through
   its return value instead of longjmp, which Swift cannot catch. */
#include <png.h>

static inline png_uint_32 CPNG_image_version(void) { return PNG_IMAGE_VERSION; }
static inline png_uint_32 CPNG_format_gray(void) { return PNG_FORMAT_GRAY; }
static inline png_uint_32 CPNG_image_flag_fast(void) { return PNG_IMAGE_FLAG_FAST; }

/* An upper bound of the PNG size, so that one png_image_write_to_memory call suffices. */
static inline png_alloc_size_t CPNG_image_png_size_max(const png_image *image) {
    return PNG_IMAGE_PNG_SIZE_MAX(*image);
}

#endif
