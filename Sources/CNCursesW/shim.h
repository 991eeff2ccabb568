#ifndef VOICEMEMO_CNCURSESW_SHIM_H
#define VOICEMEMO_CNCURSESW_SHIM_H

#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#include <locale.h>
#include <ncursesw/curses.h>

/*
 * Swift 6 refuses global C variables (stdscr, LINES, COLS, COLORS) as not
 * concurrency-safe, and cannot import function-like macros (A_BOLD, getmaxyx,
 * ACS_*). These wrappers are the only way the Terminal module reaches them.
 */
static inline WINDOW *voicememo_stdscr(void) { return stdscr; }
static inline int voicememo_lines(void) { return LINES; }
static inline int voicememo_cols(void) { return COLS; }
static inline int voicememo_colors(void) { return COLORS; }
static inline int voicememo_color_pairs(void) { return COLOR_PAIRS; }

static inline attr_t voicememo_a_normal(void) { return A_NORMAL; }
static inline attr_t voicememo_a_bold(void) { return A_BOLD; }
static inline attr_t voicememo_a_dim(void) { return A_DIM; }
static inline attr_t voicememo_a_reverse(void) { return A_REVERSE; }
static inline attr_t voicememo_a_underline(void) { return A_UNDERLINE; }
static inline attr_t voicememo_color_pair(short pair) { return (attr_t)COLOR_PAIR(pair); }

#endif
