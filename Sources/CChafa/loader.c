#include "intercom_chafa_table.h"
#include <intercom_dynamic_load.h>

int intercom_chafa_open(const char *soname, struct intercom_chafa *table, char *error, size_t error_size) {
    void *library = intercom_dynamic_open(soname, error, error_size);
    if (library == NULL) {
        return -1;
    }
    struct intercom_chafa loaded;
    INTERCOM_SYMBOL(canvas_config_new, chafa_canvas_config_new)
    INTERCOM_SYMBOL(canvas_config_unref, chafa_canvas_config_unref)
    INTERCOM_SYMBOL(canvas_config_set_geometry, chafa_canvas_config_set_geometry)
    INTERCOM_SYMBOL(canvas_config_set_cell_geometry, chafa_canvas_config_set_cell_geometry)
    INTERCOM_SYMBOL(canvas_config_set_pixel_mode, chafa_canvas_config_set_pixel_mode)
    INTERCOM_SYMBOL(canvas_config_set_symbol_map, chafa_canvas_config_set_symbol_map)
    INTERCOM_SYMBOL(canvas_config_set_canvas_mode, chafa_canvas_config_set_canvas_mode)
    INTERCOM_SYMBOL(canvas_config_set_work_factor, chafa_canvas_config_set_work_factor)
    INTERCOM_SYMBOL(symbol_map_new, chafa_symbol_map_new)
    INTERCOM_SYMBOL(symbol_map_unref, chafa_symbol_map_unref)
    INTERCOM_SYMBOL(symbol_map_add_by_tags, chafa_symbol_map_add_by_tags)
    INTERCOM_SYMBOL(canvas_new, chafa_canvas_new)
    INTERCOM_SYMBOL(canvas_unref, chafa_canvas_unref)
    INTERCOM_SYMBOL(canvas_draw_all_pixels, chafa_canvas_draw_all_pixels)
    INTERCOM_SYMBOL(canvas_get_char_at, chafa_canvas_get_char_at)
    INTERCOM_SYMBOL(canvas_get_colors_at, chafa_canvas_get_colors_at)
    INTERCOM_SYMBOL(canvas_print, chafa_canvas_print)
    INTERCOM_SYMBOL(term_db_get_default, chafa_term_db_get_default)
    INTERCOM_SYMBOL(term_db_get_fallback_info, chafa_term_db_get_fallback_info)
    INTERCOM_SYMBOL(term_info_unref, chafa_term_info_unref)
    INTERCOM_SYMBOL(g_string_free, g_string_free)
    *table = loaded;
    return 0;
}
