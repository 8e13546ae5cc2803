#!/usr/bin/env bash
# Opens the real XBoard in analysis mode on Sena-Mukha with ludus as its engine, lets
# ludus analyse the start position for a while, and screenshots the board and XBoard's
# Engine Output window with ludus's thinking in it.
#
#   usage: xvfb-run -a -s "-screen 0 1280x1024x24" adapters/xboard/analysis.sh LUDUS OUTDIR [SECONDS]
#
# LUDUS is the ludus binary; OUTDIR receives analysis.png (the whole screen: the board
# and the Engine Output window beside it), xboard.debug (XBoard's log of the traffic, with every
# thinking line ludus sent) and xboard.out. Needs xboard, ImageMagick's import,
# xwininfo and python3 (Debian: xboard, imagemagick, x11-utils).
set -euo pipefail
ludus=$(realpath "$1")
out=$(realpath -m "$2")
seconds=${3:-8}
mkdir -p "$out/home"
rm -f "$out/analysis.png" "$out/xboard.debug"
xboard=$(command -v xboard || echo /usr/games/xboard)

HOME="$out/home" "$xboard" \
  -fcp "$ludus" -fd "$out" -variant senamukha -initialMode Analysis \
  -engineOutputUp true \
  -animateMoving false -saveSettingsOnExit false -soundProgram "" -boardSize medium \
  -debug -nameOfDebugFile "$out/xboard.debug" > "$out/xboard.out" 2>&1 &
xboard_pid=$!

# The engine's thinking reaches XBoard as `depth score time nodes pv` lines; XBoard
# logs each one it reads. Analysis runs until XBoard is closed: wait for the thinking
# to appear, give it the time asked for, then take the screenshot and close XBoard.
status=0
for _ in $(seq 120); do
  sleep 0.5
  if ! kill -0 "$xboard_pid" 2>/dev/null; then
    wait "$xboard_pid" || status=$?
    echo "xboard ended by itself (status $status)" >&2
    exit 1
  fi
  if grep -qE '^[0-9]+ <first *: *[0-9]+ -?[0-9]+ [0-9]+ [0-9]+ ' "$out/xboard.debug" 2>/dev/null; then
    # Without a window manager the Engine Output window opens over the board: move it
    # to the board's right and make it taller (xwininfo finds it, libX11 moves it).
    window=$(xwininfo -name "Engine output" | sed -n 's/^xwininfo: Window id: \(0x[0-9a-f]*\).*/\1/p')
    python3 -c '
import ctypes, sys
x11 = ctypes.CDLL("libX11.so.6")
x11.XOpenDisplay.restype = ctypes.c_void_p
display = x11.XOpenDisplay(None)
x11.XMoveResizeWindow(ctypes.c_void_p(display), ctypes.c_ulong(int(sys.argv[1], 16)), 530, 0, 500, 330)
x11.XCloseDisplay(ctypes.c_void_p(display))
' "$window"
    sleep "$seconds"
    import -window root -crop 1040x660+0+0 +repage "$out/analysis.png"
    kill "$xboard_pid"
    wait "$xboard_pid" 2>/dev/null || true
    echo "ludus analysed in XBoard: the screen in $out/analysis.png"
    exit 0
  fi
done
kill "$xboard_pid" 2>/dev/null || true
echo "no thinking output reached XBoard within a minute" >&2
exit 1
