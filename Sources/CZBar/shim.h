#ifndef CZBAR_SHIM_H
#define CZBAR_SHIM_H

/* zbar's C API (libzbar-dev). Only the image scanner is used: OTPQRScan decodes PNG and JPEG itself
   and hands zbar 8-bit grey pixels, so none of zbar's video, window or ImageMagick parts is reached. */
#include <zbar.h>

/* zbar_fourcc is a function-like macro, which Swift does not import. */
static inline unsigned long CZBar_format_y800(void) { return zbar_fourcc('Y', '8', '0', '0'); }

#endif
