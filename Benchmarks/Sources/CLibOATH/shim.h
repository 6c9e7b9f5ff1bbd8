#ifndef CLIBOATH_SHIM_H
#define CLIBOATH_SHIM_H
#include <liboath/oath.h>
#endif
