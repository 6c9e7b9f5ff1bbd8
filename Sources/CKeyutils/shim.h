#ifndef CKEYUTILS_SHIM_H
#define CKEYUTILS_SHIM_H

/* libkeyutils: the Linux kernel key retention service, where an unlocked vault's key waits for the
   next command of the same login session (its session keyring) until a timeout the kernel enforces. */
#include <keyutils.h>
#include <sys/prctl.h>

/* The special keyring ids and permission bits are macros of type-less integer constants. */
static inline key_serial_t CKeyutils_session_keyring(void) { return KEY_SPEC_SESSION_KEYRING; }
static inline key_perm_t CKeyutils_possessor_permissions(void) {
    return KEY_POS_VIEW | KEY_POS_READ | KEY_POS_WRITE | KEY_POS_SEARCH | KEY_POS_LINK | KEY_POS_SETATTR;
}

/* prctl is variadic, which Swift does not import; the vault calls it next to its keyring use. */
static inline int CKeyutils_disable_core_dumps(void) { return prctl(PR_SET_DUMPABLE, 0, 0, 0, 0); }

#endif
