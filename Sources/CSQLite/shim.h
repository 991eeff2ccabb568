#ifndef VOICEMEMO_CSQLITE_SHIM_H
#define VOICEMEMO_CSQLITE_SHIM_H

#include <sqlite3.h>

/* SQLITE_TRANSIENT is a cast of -1 to a function pointer: Swift cannot import it. */
static inline sqlite3_destructor_type voicememo_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

static inline int voicememo_sqlite_bind_text_transient(sqlite3_stmt *statement, int index,
                                                       const char *text, int length) {
    return sqlite3_bind_text(statement, index, text, length, SQLITE_TRANSIENT);
}

static inline int voicememo_sqlite_bind_blob_transient(sqlite3_stmt *statement, int index,
                                                       const void *bytes, int length) {
    return sqlite3_bind_blob(statement, index, bytes, length, SQLITE_TRANSIENT);
}

#endif
