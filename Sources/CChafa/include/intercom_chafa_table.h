// libchafa's declarations for the terminal's pictures, and the table its functions (and glib's one
// the canvas needs) are reached through: the library is loaded with dlopen when the first picture is
// drawn, so commands that draw none never map chafa, glib and pcre2. Each field takes its type from
// the real declaration (`__typeof__`), so the compiler checks every signature against chafa.h.
#ifndef INTERCOM_CCHAFA_TABLE_H
#define INTERCOM_CCHAFA_TABLE_H
#include <stddef.h>
#include <intercom_dynamic_load.h>
#include <chafa.h>

/// The soname loaded: Debian's libchafa0, the library the headers (libchafa-dev) are for.
#define INTERCOM_CHAFA_SONAME "libchafa.so.0"

/// The functions the table holds: each (field, function) pair, named once for the struct and the loader.
#define INTERCOM_CHAFA_FUNCTIONS(X) \
    X(canvas_config_new, chafa_canvas_config_new) \
    X(canvas_config_unref, chafa_canvas_config_unref) \
    X(canvas_config_set_geometry, chafa_canvas_config_set_geometry) \
    X(canvas_config_set_cell_geometry, chafa_canvas_config_set_cell_geometry) \
    X(canvas_config_set_pixel_mode, chafa_canvas_config_set_pixel_mode) \
    X(canvas_config_set_symbol_map, chafa_canvas_config_set_symbol_map) \
    X(canvas_config_set_canvas_mode, chafa_canvas_config_set_canvas_mode) \
    X(canvas_config_set_work_factor, chafa_canvas_config_set_work_factor) \
    X(symbol_map_new, chafa_symbol_map_new) \
    X(symbol_map_unref, chafa_symbol_map_unref) \
    X(symbol_map_add_by_tags, chafa_symbol_map_add_by_tags) \
    X(canvas_new, chafa_canvas_new) \
    X(canvas_unref, chafa_canvas_unref) \
    X(canvas_draw_all_pixels, chafa_canvas_draw_all_pixels) \
    X(canvas_get_char_at, chafa_canvas_get_char_at) \
    X(canvas_get_colors_at, chafa_canvas_get_colors_at) \
    X(canvas_print, chafa_canvas_print) \
    X(term_db_get_default, chafa_term_db_get_default) \
    X(term_db_get_fallback_info, chafa_term_db_get_fallback_info) \
    X(term_info_unref, chafa_term_info_unref) \
    X(g_string_free, g_string_free) /* glib's, found through chafa's handle: frees what canvas_print gives */

INTERCOM_DECLARE_TABLE(intercom_chafa, INTERCOM_CHAFA_FUNCTIONS, intercom_chafa_open)

#endif
