// The steps the dlopen loaders (CCurl, CMosquitto, CFFmpeg) share to fill their tables: open the
// library, look each symbol up, and at the first one missing close it again and say which. Header
// only, so each loader's C target keeps its own library, table and soname; nothing here links.
#ifndef INTERCOM_DYNAMIC_LOAD_H
#define INTERCOM_DYNAMIC_LOAD_H
#include <dlfcn.h>
#include <stddef.h>
#include <stdio.h>

/// dlopen(`soname`, RTLD_NOW | RTLD_LOCAL): every symbol bound now, so a missing one fails here and
/// not at its first call; local, so the library's names never stand in for another's. NULL with
/// dlerror's reason in `error` when it cannot be loaded.
static inline void *intercom_dynamic_open(const char *soname, char *error, size_t error_size) {
    void *library = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
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

#endif
