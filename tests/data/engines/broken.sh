#!/bin/sh
# A deliberately broken engine for the match tests. It answers the native protocol's
# set-up requests, then on `go` misbehaves as its first argument says:
#   illegal  answers a move that is never legal;
#   exits    exits;
#   silent   never answers;
#   garbage  answers a line that is not a move;
#   twice    answers i3h5 twice (legal once, for White's first move);
#   latin1   writes a byte that is not UTF-8, then a move that is never legal;
#   flood    writes zero bytes without end, never a newline;
#   chatty   writes info lines without end, never a move.
mode=$1
while IFS= read -r line; do
  case "$line" in
    go*)
      case "$mode" in
        illegal) printf '=\n\nbestmove z9z9\n' ;;
        exits) exit 3 ;;
        silent) exec sleep 3600 ;;
        garbage) printf '=\n\nhello there\nbestmove\n' ;;
        twice) printf '=\n\nbestmove i3h5\nbestmove i3h5\n' ;;
        latin1) printf '=\n\ninfo string J\374rgen\nbestmove z9z9\n' ;;
        flood) printf '=\n\n'; exec cat /dev/zero ;;
        chatty) printf '=\n\n'; exec yes 'info string chatter' ;;
      esac ;;
    quit*) exit 0 ;;
    *) printf '=\n\n' ;;
  esac
done
