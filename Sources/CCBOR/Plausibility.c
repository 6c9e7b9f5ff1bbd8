#include "CCBOR.h"

// Deeper than any attestation object, COSE key or extension map, and what OTPWebAuthn's CBOR
// reads below the top item too: refused here, before libcbor builds (up to its own 2048 levels)
// and frees (recursively) what would then be refused anyway.
#define MAXIMUM_DEPTH 16

typedef enum { ITEM, OPEN, TAG } event_kind;

typedef struct {
    size_t room;  // bytes after the current head's start
    bool failed;
    event_kind event;
    size_t opened;  // items the container just opened holds (a map's keys and values both)
    size_t remaining[MAXIMUM_DEPTH];
    int depth;
} walk;

static void on_item(void *context) { ((walk *)context)->event = ITEM; }
static void on_uint8(void *context, uint8_t value) { (void)value, on_item(context); }
static void on_uint16(void *context, uint16_t value) { (void)value, on_item(context); }
static void on_uint32(void *context, uint32_t value) { (void)value, on_item(context); }
static void on_uint64(void *context, uint64_t value) { (void)value, on_item(context); }
static void on_bytes(void *context, cbor_data data, size_t length) { (void)data, (void)length, on_item(context); }
static void on_float(void *context, float value) { (void)value, on_item(context); }
static void on_double(void *context, double value) { (void)value, on_item(context); }
static void on_bool(void *context, bool value) { (void)value, on_item(context); }
static void on_tag(void *context, uint64_t value) { (void)value, ((walk *)context)->event = TAG; }

static void on_array(void *context, size_t count) {
    walk *state = context;
    if (count > state->room) state->failed = true;
    state->event = OPEN;
    state->opened = count;
}

static void on_map(void *context, size_t count) {
    walk *state = context;
    if (count > state->room / 2) state->failed = true;
    state->event = OPEN;
    state->opened = 2 * count;
}

static void on_indefinite(void *context) { ((walk *)context)->failed = true; }

// One item is complete: it counts against its container, which may then be complete in turn.
static void complete(walk *state) {
    while (state->depth > 0) {
        if (--state->remaining[state->depth - 1] > 0) return;
        state->depth--;
    }
}

bool otpkit_cbor_is_plausible(const uint8_t *bytes, size_t length) {
    struct cbor_callbacks callbacks = cbor_empty_callbacks;
    callbacks.uint8 = callbacks.negint8 = on_uint8;
    callbacks.uint16 = callbacks.negint16 = on_uint16;
    callbacks.uint32 = callbacks.negint32 = on_uint32;
    callbacks.uint64 = callbacks.negint64 = on_uint64;
    callbacks.byte_string = callbacks.string = on_bytes;
    callbacks.float2 = callbacks.float4 = on_float;
    callbacks.float8 = on_double;
    callbacks.undefined = callbacks.null = on_item;
    callbacks.boolean = on_bool;
    callbacks.tag = on_tag;
    callbacks.array_start = on_array;
    callbacks.map_start = on_map;
    callbacks.indef_array_start = callbacks.indef_map_start = on_indefinite;
    callbacks.byte_string_start = callbacks.string_start = callbacks.indef_break = on_indefinite;
    walk state = {0};
    size_t offset = 0;
    while (offset < length) {
        state.room = length - offset;
        state.event = ITEM;
        struct cbor_decoder_result result = cbor_stream_decode(bytes + offset, length - offset, &callbacks, &state);
        if (result.status != CBOR_DECODER_FINISHED || result.read == 0 || state.failed) return false;
        offset += result.read;
        switch (state.event) {
        case ITEM: complete(&state); break;
        case TAG: break;  // the item it tags follows
        case OPEN:
            if (state.opened == 0) {
                complete(&state);
            } else {
                if (state.depth == MAXIMUM_DEPTH) return false;
                state.remaining[state.depth++] = state.opened;
            }
            break;
        }
    }
    return true;
}
