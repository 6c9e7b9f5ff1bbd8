#ifndef CTURBOJPEG_SHIM_H
#define CTURBOJPEG_SHIM_H

/* libjpeg-turbo's TurboJPEG API rather than libjpeg's: it reports errors through return values and
   tjGetErrorStr2 instead of an error_exit handler that must longjmp, which Swift cannot catch. */
#include <stddef.h>
#include <turbojpeg.h>

#endif
