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

#include <langinfo.h>
#include <signal.h>
#include <string.h>
#include <termios.h>
#include <fcntl.h>
#include <time.h>
#include <unistd.h>

/* Whether the terminal has an alternate screen that endwin leaves (terminfo rmcup): without
 * one (vt100), what was drawn stays on the shell's screen unless it is cleared first. */
static inline int voicememo_has_alternate_screen(void) {
    char *leave = tigetstr("rmcup");
    return leave != NULL && leave != (char *)-1 && leave[0] != 0;
}

/* The codeset of the current locale, e.g. "UTF-8" (nl_langinfo's CODESET is an enum
 * constant Swift may not see on every libc). */
static inline const char *voicememo_codeset(void) { return nl_langinfo(CODESET); }

/* newterm on the process's standard output and input (Swift 6 cannot touch the
 * `stdout`/`stdin` globals); unlike initscr it returns NULL instead of exiting. */
static inline SCREEN *voicememo_newterm(void) { return newterm(NULL, stdout, stdin); }

/* Draws one cell's glyph (UTF-8) with attributes and a colour pair. */
static inline int voicememo_draw_text(WINDOW *window, int y, int x, const char *text, attr_t attributes, short pair) {
    wattr_set(window, attributes, pair, NULL);
    return mvwaddstr(window, y, x, text);
}

/* Restoring the terminal when the process dies of a fatal signal (a Swift trap is
 * SIGILL or SIGTRAP): the handler only uses async-signal-safe calls (dup, dup2, open, write,
 * tcsetattr, nanosleep, signal, raise) on data saved before curses started. */
struct voicememo_fatal_restore_state {
    struct termios saved_termios;
    int termios_saved;
    char reset_bytes[256];
    size_t reset_length;
    /* The terminal's standard error while fd 2 is captured, plus one (0: not captured). */
    int saved_stderr_plus_one;
    /* The capture pipe's read end, plus one (0: none), and the last bytes read from it: what
     * was written to standard error while the screen was up, Swift's "Fatal error: …" line
     * among them, is written on the terminal after a fatal signal instead of lost. */
    int capture_read_end_plus_one;
    char captured_tail[2048];
    size_t captured_length;
};

/* The saved state; a function-local static, since Swift emits static inline functions
 * but not file-scope C variables. Weak and not inline, as CALSA's error buffer: a static
 * inline function gives every object file that calls it its own copy (each Swift file is an
 * object of its own in debug builds), so the fd 2 that StandardErrorCapture.swift saved went
 * into a copy the handler CursesTerminal.swift installed never read (the optimiser dropped
 * the store altogether). The linker keeps one weak definition for the whole program. */
__attribute__((weak)) struct voicememo_fatal_restore_state *voicememo_fatal_state(void) {
    static struct voicememo_fatal_restore_state state;
    return &state;
}

static inline void voicememo_fatal_signal_handler(int number) {
    struct voicememo_fatal_restore_state *state = voicememo_fatal_state();
    /* The terminal is the handler's from here on. The other threads go on while it runs (the
     * screen's queue may be drawing a frame, and the handler waits 30 ms below), and curses
     * writes the cells it thinks changed: after the alternate screen was left they landed on
     * the shell's screen ("3.0" of a meter reading, before the crash's words). Their fd 1
     * now leads to /dev/null; the handler keeps the terminal on a descriptor of its own. */
    int terminal = dup(STDOUT_FILENO);
    int nowhere = open("/dev/null", O_WRONLY);
    if (terminal >= 0 && nowhere >= 0) dup2(nowhere, STDOUT_FILENO);
    if (nowhere >= 0) close(nowhere);
    if (terminal < 0) terminal = STDOUT_FILENO;
    if (state->reset_length > 0) {
        ssize_t ignored = write(terminal, state->reset_bytes, state->reset_length);
        (void)ignored;
    }
    if (state->termios_saved) tcsetattr(STDIN_FILENO, TCSANOW, &state->saved_termios);
    if (state->saved_stderr_plus_one > 0) {
        dup2(state->saved_stderr_plus_one - 1, STDERR_FILENO);
        if (state->capture_read_end_plus_one > 0) {
            /* The capture's thread may be between reading the last bytes and keeping them:
             * a moment for it, then what it kept, then what it has not read yet. */
            struct timespec moment = { 0, 30 * 1000 * 1000 };
            nanosleep(&moment, NULL);
            ssize_t ignored = write(STDERR_FILENO, state->captured_tail, state->captured_length);
            (void)ignored;
            int descriptor = state->capture_read_end_plus_one - 1;
            fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK);
            char rest[1024];
            ssize_t count;
            while ((count = read(descriptor, rest, sizeof rest)) > 0) {
                ignored = write(STDERR_FILENO, rest, (size_t)count);
            }
        }
    }
    signal(number, SIG_DFL);
    raise(number);
}

/* Saves the terminal's modes now and the bytes that undo curses' screen (leave the
 * alternate screen, show the cursor, reset attributes), then installs the handler for
 * SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT and SIGTRAP. */
static inline void voicememo_install_fatal_restore(const char *reset) {
    struct voicememo_fatal_restore_state *state = voicememo_fatal_state();
    if (tcgetattr(STDIN_FILENO, &state->saved_termios) == 0) state->termios_saved = 1;
    size_t length = strlen(reset);
    if (length >= sizeof state->reset_bytes) length = sizeof state->reset_bytes - 1;
    memcpy(state->reset_bytes, reset, length);
    state->reset_length = length;
    int signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
    for (unsigned index = 0; index < sizeof signals / sizeof signals[0]; index++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_handler = voicememo_fatal_signal_handler;
        sigemptyset(&action.sa_mask);
        action.sa_flags = SA_RESETHAND;
        sigaction(signals[index], &action, NULL);
    }
}

/* The descriptor to put back on fd 2 if a fatal signal comes while it is captured, and the
 * capture pipe's read end; -1, -1: none. */
static inline void voicememo_set_fatal_stderr(int descriptor, int capture_read_end) {
    struct voicememo_fatal_restore_state *state = voicememo_fatal_state();
    state->capture_read_end_plus_one = 0;
    state->captured_length = 0;
    state->saved_stderr_plus_one = descriptor + 1;
    state->capture_read_end_plus_one = capture_read_end + 1;
}

/* Keeps the last bytes the capture read (called by its thread after each read). */
static inline void voicememo_fatal_note_stderr(const char *bytes, size_t count) {
    struct voicememo_fatal_restore_state *state = voicememo_fatal_state();
    size_t room = sizeof state->captured_tail;
    if (count >= room) {
        memcpy(state->captured_tail, bytes + count - room, room);
        state->captured_length = room;
        return;
    }
    size_t kept = state->captured_length;
    if (kept + count > room) {
        size_t drop = kept + count - room;
        memmove(state->captured_tail, state->captured_tail + drop, kept - drop);
        kept -= drop;
    }
    memcpy(state->captured_tail + kept, bytes, count);
    state->captured_length = kept + count;
}

/* Puts the default actions back (after curses has ended normally). */
static inline void voicememo_uninstall_fatal_restore(void) {
    int signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
    for (unsigned index = 0; index < sizeof signals / sizeof signals[0]; index++) signal(signals[index], SIG_DFL);
    voicememo_fatal_state()->reset_length = 0;
}

#endif
