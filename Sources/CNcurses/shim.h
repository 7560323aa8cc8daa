#ifndef INTERCOM_CNCURSES_SHIM_H
#define INTERCOM_CNCURSES_SHIM_H
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <ncursesw/curses.h>

// ncurses spells these as function-like macros, which Swift does not import.
static inline int intercom_color_pair(int n) { return (int)COLOR_PAIR(n); }
static inline int intercom_attr_bold(void) { return (int)A_BOLD; }
static inline int intercom_attr_reverse(void) { return (int)A_REVERSE; }
static inline int intercom_attr_dim(void) { return (int)A_DIM; }
#endif
