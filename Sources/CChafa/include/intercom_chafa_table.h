// libchafa's declarations for the terminal's pictures, and the table its functions (and glib's one
// the canvas needs) are reached through: the library is loaded with dlopen when the first picture is
// drawn, so commands that draw none never map chafa, glib and pcre2. Each field takes its type from
// the real declaration (`__typeof__`), so the compiler checks every signature against chafa.h.
#ifndef INTERCOM_CCHAFA_TABLE_H
#define INTERCOM_CCHAFA_TABLE_H
#include <stddef.h>
#include <chafa.h>

/// The soname loaded: Debian's libchafa0, the library the headers (libchafa-dev) are for.
#define INTERCOM_CHAFA_SONAME "libchafa.so.0"

struct intercom_chafa {
    __typeof__(chafa_canvas_config_new) *_Nonnull canvas_config_new;
    __typeof__(chafa_canvas_config_unref) *_Nonnull canvas_config_unref;
    __typeof__(chafa_canvas_config_set_geometry) *_Nonnull canvas_config_set_geometry;
    __typeof__(chafa_canvas_config_set_cell_geometry) *_Nonnull canvas_config_set_cell_geometry;
    __typeof__(chafa_canvas_config_set_pixel_mode) *_Nonnull canvas_config_set_pixel_mode;
    __typeof__(chafa_canvas_config_set_symbol_map) *_Nonnull canvas_config_set_symbol_map;
    __typeof__(chafa_canvas_config_set_canvas_mode) *_Nonnull canvas_config_set_canvas_mode;
    __typeof__(chafa_canvas_config_set_work_factor) *_Nonnull canvas_config_set_work_factor;
    __typeof__(chafa_symbol_map_new) *_Nonnull symbol_map_new;
    __typeof__(chafa_symbol_map_unref) *_Nonnull symbol_map_unref;
    __typeof__(chafa_symbol_map_add_by_tags) *_Nonnull symbol_map_add_by_tags;
    __typeof__(chafa_canvas_new) *_Nonnull canvas_new;
    __typeof__(chafa_canvas_unref) *_Nonnull canvas_unref;
    __typeof__(chafa_canvas_draw_all_pixels) *_Nonnull canvas_draw_all_pixels;
    __typeof__(chafa_canvas_get_char_at) *_Nonnull canvas_get_char_at;
    __typeof__(chafa_canvas_get_colors_at) *_Nonnull canvas_get_colors_at;
    __typeof__(chafa_canvas_print) *_Nonnull canvas_print;
    __typeof__(chafa_term_db_get_default) *_Nonnull term_db_get_default;
    __typeof__(chafa_term_db_get_fallback_info) *_Nonnull term_db_get_fallback_info;
    __typeof__(chafa_term_info_unref) *_Nonnull term_info_unref;
    /// glib's, found through chafa's handle (glib is chafa's dependency): frees what canvas_print gives.
    __typeof__(g_string_free) *_Nonnull g_string_free;
};

/// Loads `soname` and fills `*table` (uninitialised memory is fine): 0 on success; otherwise -1,
/// `*table` untouched and dlopen's or dlsym's reason in `error`. The handle is never closed.
int intercom_chafa_open(const char *_Nonnull soname, struct intercom_chafa *_Nonnull table,
                        char *_Nonnull error, size_t error_size);

#endif
