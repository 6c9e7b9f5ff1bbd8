#include "CCBOR.h"

typedef struct {
    size_t room;  // bytes after the current head's start
    bool failed;
} walk;

static void on_array(void *context, size_t count) {
    walk *state = context;
    if (count > state->room) state->failed = true;
}

static void on_map(void *context, size_t count) {
    walk *state = context;
    if (count > state->room / 2) state->failed = true;
}

static void on_indefinite(void *context) { ((walk *)context)->failed = true; }

bool otpkit_cbor_is_plausible(const uint8_t *bytes, size_t length) {
    struct cbor_callbacks callbacks = cbor_empty_callbacks;
    callbacks.array_start = on_array;
    callbacks.map_start = on_map;
    callbacks.indef_array_start = on_indefinite;
    callbacks.indef_map_start = on_indefinite;
    callbacks.byte_string_start = on_indefinite;
    callbacks.string_start = on_indefinite;
    callbacks.indef_break = on_indefinite;
    walk state = {0, false};
    size_t offset = 0;
    while (offset < length) {
        state.room = length - offset;
        struct cbor_decoder_result result = cbor_stream_decode(bytes + offset, length - offset, &callbacks, &state);
        if (result.status != CBOR_DECODER_FINISHED || result.read == 0 || state.failed) return false;
        offset += result.read;
    }
    return true;
}
