// The steps the dlopen loaders (CCurl, CMosquitto, CFFmpeg) share to fill their tables: open the
// library, look each symbol up, and at the first one missing close it again and say which. Header
// only, so each loader's C target keeps its own library, table and soname; nothing here links.
#ifndef INTERCOM_DYNAMIC_LOAD_H
#define INTERCOM_DYNAMIC_LOAD_H
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

/// dlopen(`soname`, RTLD_LAZY | RTLD_LOCAL): local, so the library's names never stand in for another's;
/// lazy, so the calls inside the library and its dependencies are bound when first made, as every
/// program linked to them binds them (binding libcurl's ~30 libraries all at once cost 0.8 ms of an
/// export's start: DECISIONS.md "libraries loaded lazily"). The functions a table names are still
/// all looked up at load (INTERCOM_SYMBOL), so a missing one fails here, not at its first call. NULL
/// with dlerror's reason in `error` when it cannot be loaded.
static inline void *intercom_dynamic_open(const char *soname, char *error, size_t error_size) {
    void *library = dlopen(soname, RTLD_LAZY | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(error, error_size, "%s", dlerror());
    }
    return library;
}

/// Inside a loader: `loaded.field` = the symbol `name` of `library`, cast to the field's own type (which
/// the table took by `__typeof__` from the library's header, so the compiler checks the signature). When
/// it is missing: the reason in `error`, `library` closed and -1 returned from the loader, its table
/// untouched. A macro because it returns from its caller; it uses the loader's `library`, `soname`,
/// `loaded`, `error` and `error_size`.
#define INTERCOM_SYMBOL(field, name)                                              \
    loaded.field = (__typeof__(loaded.field))dlsym(library, #name);              \
    if (loaded.field == NULL) {                                                  \
        snprintf(error, error_size, "%s has no %s", soname, #name);              \
        dlclose(library);                                                        \
        return -1;                                                               \
    }

/// One field of a library's table: a pointer typed from the function's own declaration (`__typeof__`),
/// so the compiler checks every signature against the library's header. For a list macro that names
/// each (field, function) pair once: the table's struct and its loader are both made from that list.
#define INTERCOM_TABLE_FIELD(field, name) __typeof__(name) *_Nonnull field;

/// A library's table (`struct table_type`, a field per function `list` names) and its loader's prototype:
/// `function` loads `soname` and fills `*table` (uninitialised memory is fine): 0 on success; otherwise
/// -1, `*table` untouched and dlopen's or dlsym's reason in `error`. Defined by INTERCOM_DEFINE_LOADER.
#define INTERCOM_DECLARE_TABLE(table_type, list, function)                                             \
    struct table_type {                                                                            \
        list(INTERCOM_TABLE_FIELD)                                                                 \
    };                                                                                             \
    int function(const char *_Nonnull soname, struct table_type *_Nonnull table, char *_Nonnull error, \
                 size_t error_size);

/// A whole loader, `int function(soname, table, error, error_size)`: opens `soname`, looks up every
/// function `list` names, and fills `*table` only when all were found (0); otherwise -1, `*table`
/// untouched and the reason in `error`. The handle is never closed: the table stays valid for the life
/// of the process.
#define INTERCOM_DEFINE_LOADER(function, table_type, list)                                            \
    int function(const char *soname, struct table_type *table, char *error, size_t error_size) {     \
        void *library = intercom_dynamic_open(soname, error, error_size);                          \
        if (library == NULL) {                                                                     \
            return -1;                                                                             \
        }                                                                                          \
        struct table_type loaded;                                                                  \
        list(INTERCOM_SYMBOL)                                                                      \
        *table = loaded;                                                                           \
        return 0;                                                                                  \
    }

#endif
