#ifndef CQRENCODE_SHIM_H
#define CQRENCODE_SHIM_H

#include <errno.h>
#include <qrencode.h>

/* errno is a macro on glibc; Swift reads it through this function so that the cause of a failed
   QRcode_encodeData (ERANGE: too long, EINVAL, ENOMEM) is read right after the call. */
static inline int CQRencode_errno(void) { return errno; }
static inline void CQRencode_clear_errno(void) { errno = 0; }

#endif
