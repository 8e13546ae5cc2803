#!/usr/bin/env bash
# Plays Sena-Mukha games between two ludus engines in the real XBoard, in two-machine
# (match) mode, saves the games as PGN and screenshots of the board.
#
#   usage: xvfb-run -a -s "-screen 0 1280x1024x24" adapters/xboard/two-machines.sh LUDUS OUTDIR [GAMES]
#
# LUDUS is the ludus binary; OUTDIR receives games.pgn, board.png (the board at the end
# of the match), xboard.debug (XBoard's log of the traffic) and xboard.out. Needs
# xboard and ImageMagick's import (Debian: xboard, imagemagick).
set -euo pipefail
ludus=$(realpath "$1")
out=$(realpath -m "$2")
games=${3:-1}
mkdir -p "$out/home"
rm -f "$out/games.pgn" "$out/board.png"
xboard=$(command -v xboard || echo /usr/games/xboard)

# The rules are ludus's; XBoard's own adjudications are set to agree with them:
# repetition at the third occurrence, no 50-move rule, no material draws (it would
# take the Elephant for a weak Alfil). Quick games: depth 4, 30 s + 0.5 s a move.
# Sena-Mukha has no move limit, and at depth 4 a won game is sometimes not converted
# for hundreds of moves; XBoard ends a game that reaches its own limit (MAX_MOVES,
# 1000 plies) as unfinished and then stops the match, so XBoard adjudicates a game
# still going after ADJUDICATE_MOVES moves (default 300) as a draw.
HOME="$out/home" "$xboard" \
  -fcp "$ludus" -fd "$out" -scp "$ludus" -sd "$out" \
  -variant senamukha -mm -mg "$games" -matchPause 500 \
  -tc 0:30 -inc 0.5 -searchDepth 4 -autoCallFlag true \
  -adjudicateDrawMoves "${ADJUDICATE_MOVES:-300}" -repeatsToDraw 3 -materialDraws false -ruleMoves 0 -testClaims true -checkMates true \
  -animateMoving false -sgf "$out/games.pgn" -saveSettingsOnExit false \
  -soundProgram "" -boardSize medium \
  -debug -nameOfDebugFile "$out/xboard.debug" > "$out/xboard.out" 2>&1 &
xboard_pid=$!

# XBoard stays open after the match with the final position on the board: once every
# game is saved, a screenshot is taken and XBoard closed. At most five minutes.
status=0
for _ in $(seq 600); do
  sleep 0.5
  if ! kill -0 "$xboard_pid" 2>/dev/null; then
    wait "$xboard_pid" || status=$?
    echo "xboard ended by itself (status $status) before the match was saved" >&2
    exit 1
  fi
  saved=$(grep -c '^\[Result "[^*]' "$out/games.pgn" 2>/dev/null || true)
  if [ "${saved:-0}" -ge "$games" ]; then
    sleep 1
    import -window root -crop 500x630+0+0 +repage "$out/board.png"
    kill "$xboard_pid"
    wait "$xboard_pid" 2>/dev/null || true
    echo "the match is over: $saved games saved in $out/games.pgn, the board in $out/board.png"
    exit 0
  fi
done
kill "$xboard_pid" 2>/dev/null || true
echo "the match did not end within five minutes" >&2
exit 1
