#!/usr/bin/env python3
"""Differential test of translated MancalaGames files against MancalaGames' own code.

MancalaGames (StoneShark/MancalaGames, GPL) is not part of this repository: give the path of a
checkout with --mancalagames. For each game file given, the script translates it with
`mancala-engine import-mancalagames`, then plays random games in MancalaGames' rules code and in
the engine (one daemon per file, through the protocol) side by side, comparing at every ply:

  - the legal moves (MancalaGames' allowable moves against `query moves`),
  - the position after each move (pits, stores, side to move against `query fen`),
  - the end of the game and its result (`query gameover`, `query result`).

A game the engine ends by one of its own history rules (repetition, no progress) while
MancalaGames plays on, and a game both end on an endless move (whose final score MancalaGames
reckons differently), are stopped there and counted apart, not as mismatches (RULES.md's
deliberate differences). Where captures give one extra move in a row, a pass ends the turn (the
opponent's capture then gives an extra move): MancalaGames' count of extra moves is cleared at a
pass, as RULES.md's rule reads. Prints one line per file and a summary; exits 1 on any mismatch.

    scripts/mancalagames-diff.py --mancalagames ~/MancalaGames --games 200 \\
        ~/MancalaGames/GameProps/*.txt
"""

import argparse
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))


class Engine:
    """The engine's daemon, one command at a time."""

    def __init__(self, binary, game_file):
        self.proc = subprocess.Popen(
            [binary], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True, bufsize=1)
        out = self.ask(f"setoption name GameFile value {game_file}")
        if any("error" in line for line in out):
            raise RuntimeError(f"the engine refused {game_file}: {out}")

    def ask(self, *commands):
        """Sends the commands and `isready`; returns the lines before `readyok`."""
        for command in commands:
            self.proc.stdin.write(command + "\n")
        self.proc.stdin.write("isready\n")
        self.proc.stdin.flush()
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise RuntimeError("the engine exited")
            line = line.strip()
            if line == "readyok":
                return lines
            lines.append(line)

    def query(self, what):
        lines = self.ask(f"query {what}")
        for line in lines:
            if line.startswith("response"):
                return line[len("response"):].strip()
        raise RuntimeError(f"query {what}: {lines}")

    def close(self):
        self.proc.stdin.write("quit\n")
        self.proc.stdin.flush()
        self.proc.wait(timeout=10)


def engine_name(game, mg_move):
    """The engine's move name of MancalaGames' move of the player to move."""
    import game_info as gi
    if mg_move == gi.PASS_TOKEN:
        return "pass"
    holes = game.cts.holes
    if isinstance(mg_move, tuple) and len(mg_move) == 3:
        # A game without sides names the pit by its row (1: South's) and its place in it, and
        # the direction the player chooses, if any.
        row, pos, direct = mg_move
        loc = pos if row else 2 * holes - 1 - pos
        chosen = "" if direct is None else ">" if direct == gi.Direct.CCW else "<"
        name = chr(ord("A") + loc) if loc < holes else chr(ord("a") + loc - holes)
        return name + chosen
    pos = mg_move[0] if isinstance(mg_move, tuple) else mg_move
    # A direction the player chooses: `>` counter-clockwise, `<` clockwise.
    chosen = ""
    if isinstance(mg_move, tuple) and len(mg_move) == 2 and mg_move[1] is not None:
        chosen = ">" if mg_move[1] == gi.Direct.CCW else "<"
    if not game.turn:
        return chr(ord("A") + pos) + chosen
    loc = 2 * holes - 1 - pos
    return chr(ord("a") + loc - holes) + chosen


def fixed_direction_window(game):
    """Whether MancalaGames' prescribed opening sows each player's first turn in the game's
    direction (`prescribed` 6), so that its moves of both directions are one move of the
    engine's (`fixed-direction-moves`), named without a direction."""
    info = game.info
    return (info.prescribed == 6 and bool(info.udir_holes) and info.sow_direct != 2
            and game.movers <= 1)


def named_moves(game, moves):
    """MancalaGames' moves with the engine's names, in order: (name, move) pairs, a move of both
    directions once where the opening fixes the direction."""
    import game_info as gi
    window = fixed_direction_window(game)
    # RULES.md's deliberate difference: where MancalaGames' feeding rule allows a pit one way
    # only (its allowables hold the pair of directions), its move list still offers both; the
    # engine's rule judges each direction.
    directed = [m for m in moves if isinstance(m, tuple) and len(m) == 2 and m[1] is not None]
    allow = game.get_allowable_holes() if directed and game.info.mustshare else None
    pairs, seen = [], set()
    for move in moves:
        if allow is not None and move in directed and isinstance(allow[move[0]], list):
            if not allow[move[0]][0 if move[1] == gi.Direct.CW else 1]:
                continue
        name = engine_name(game, move)
        if window:
            name = name.rstrip("<>")
        if name not in seen:
            seen.add(name)
            pairs.append((name, move))
    return pairs


def opening_field(game):
    """The engine's opening field (the moves of the opening played, up to its length), or None
    where the translated game has no opening rules."""
    info = game.info
    if info.nocaptmoves:
        # Captures stay inhibited until a sown move ends a turn with enough turns played.
        inhibited = game.inhibitor.get_state()
        return info.nocaptmoves if not inhibited else min(game.movers, info.nocaptmoves - 1)
    if info.prescribed == 4:
        return min(game.mcount - 1, 1)
    if info.prescribed == 6 and info.udir_holes and info.sow_direct != 2:
        return min(game.movers, 2)
    return None


def mg_fen(game):
    """MancalaGames' position as the engine writes it: a blocked pit is `x`, a child's count is
    marked `s` or `n` (its owner's), a match of rounds
    adds who started the round, a match for territory who owns each pit, and a game whose
    captures give one extra move in a row whether the player to move is on one."""
    side = "N" if game.turn else "S"

    def pit(loc, count):
        if game.blocked[loc]:
            return "x"
        # A child's count is marked with its owner (True is North).
        child = game.child[loc] if game.info.child_type else None
        return str(count) + ("" if child is None else "n" if child else "s")

    pits = "-".join(pit(loc, c) for loc, c in enumerate(game.board))
    south_store = game.store[0]
    if game.info.sow_rule in (1, 2):
        # Pits that close: MancalaGames puts the counters that leave the game in South's
        # store, where the engine's position no longer counts them (its files with the rule
        # capture nothing, so nothing else is there).
        south_store = 0
    fen = f"{pits}-{south_store}-{game.store[1]}-{side}"
    if game.info.rounds:
        fen += "-N" if game.starter else "-S"
    if game.info.rounds and game.rtally is not None:
        # A match of rounds won: the rounds each player has won.
        wins = game.rtally.round_wins
        fen += f"-{wins[0]}:{wins[1]}"
    if game.info.goal == 2:
        # A match for territory: who owns each pit, in pit order.
        fen += "-" + "".join("N" if owner else "S" for owner in game.owner)
    if tracks_extra_move(game):
        fen += "-E" if game.rturn_cnt > 0 else "-X"
    if tracks_crossing(game):
        fen += "-" + crossed_into(game)
    if game.info.sow_direct == 2:
        # The way South sows, chosen by the first move of the game (or round).
        fen += "-" + south_direction(game)
    opening = opening_field(game)
    if opening is not None:
        fen += f"-{opening}"
    return fen


def south_direction(game):
    """The engine's directions field where the first move chooses them (`sow_direct` 2): `X`
    before the first move, else `>` where South sows counter-clockwise, `<` clockwise."""
    import game_info as gi
    if game.mcount == 1:
        return "X"
    getter = game.deco.get_dir
    while not hasattr(getter, "player_dirs"):
        getter = getter.decorator
    return ">" if getter.player_dirs[False] == gi.Direct.CCW else "<"


def tracks_crossing(game):
    """Whether the engine's position string names the pit a single counter has just crossed
    into (`no-crossing-back`: MancalaGames' ban on undoing it, in split sowing)."""
    from allowables import DontUndoMoveOne
    return DontUndoMoveOne.include(game)


def crossed_into(game):
    """The letter of the pit the last move's single counter crossed into over an end of the
    board, as MancalaGames' ban reads it from the last move, or X."""
    mdata = game.mdata
    holes = game.cts.holes
    if not mdata or mdata.capt_start is None or mdata.capt_start < 0:
        return "X"
    loc = mdata.capt_start
    crossings = [{0, 2 * holes - 1}, {holes - 1, holes}]
    if (mdata.seeds == 1 and game.board[loc] == 1
            and {mdata.sow_loc, loc} in crossings):
        return chr(ord("A") + loc) if loc < holes else chr(ord("a") + loc - holes)
    return "X"


def tracks_extra_move(game):
    """Whether the engine's position string says if the player to move is on an extra move:
    captures give one extra move at most, or a game won outright by its goal has extra moves
    (RULES.md, "Position strings")."""
    info = game.info
    eliminates = info.goal in (1, 3, 10)
    return info.capt_rturn == 2 or (eliminates and (info.sow_stores == 1 or info.capt_rturn))


def translate(path, engine_bin, out_dir):
    """Translates one MancalaGames file with the engine's tool: the line it prints, and the
    written game file's path (None if the file is refused)."""
    translated = subprocess.run(
        [engine_bin, "import-mancalagames", "--games", "2", "--out", out_dir, path],
        capture_output=True, text=True)
    line = translated.stdout.strip().splitlines()[0] if translated.stdout.strip() else ""
    if not line.startswith("written"):
        return line, None
    return line, line.split("->")[1].split("(")[0].strip()


def run_file(path, args, engine_bin, out_dir, rng):
    import man_config
    import game_info as gi

    line, game_file = translate(path, engine_bin, out_dir)
    if game_file is None:
        return ("refused", line, 0, 0, (0, 0), 0)

    engine = Engine(engine_bin, game_file)
    plies = mismatches = stopped = endless = rounds = 0
    first = None
    for number in range(args.games):
        game, _ = man_config.make_game(path)
        engine.ask(f"position fen {mg_fen(game)}")  # MancalaGames draws who starts
        history = []
        for _ in range(args.max_plies):
            ours_over = engine.query("gameover") == "true"
            moves = game.get_moves()
            if not moves and game.info.mustpass and game.test_pass():
                theirs = ["pass"]
                game.turn = not game.turn  # undo test_pass's swap: the pass is played below
                game.mcount -= 1
                game.movers -= 1
            else:
                theirs = [name for name, _ in named_moves(game, moves)]
            ours = [] if ours_over else engine.query("moves").split()
            if ours_over and theirs:
                stopped += 1
                break
            if sorted(ours) != sorted(theirs):
                mismatches += 1
                first = first or (path, number, history, f"moves: ours {ours} theirs {theirs}",
                                  mg_fen(game))
                break
            if not theirs:
                break
            pick = rng.randrange(len(theirs))
            name = theirs[pick]
            if name == "pass" and tracks_extra_move(game):
                # RULES.md's deliberate difference: a pass ends the turn, so the opponent's
                # capture gives an extra move; MancalaGames would still count the passer's
                # extra move against it. Its count is cleared, as a turn's end clears it.
                game.rturn_cnt = 0
            if name == "pass":
                game.turn = not game.turn
                game.mcount += 1
                game.movers += 1
                cond = None
            else:
                mg_move = dict(named_moves(game, moves))[name]
                cond = game.move(mg_move)
            history.append(name)
            plies += 1
            engine.ask(f"move {name}")
            over = cond is not None and cond.is_game_over()
            ours_fen = engine.query("fen")
            ours_over = engine.query("gameover") == "true"
            if over and game.mdata is not None and game.mdata.ended is gi.WinCond.ENDLESS:
                # RULES.md's deliberate difference: an endless move ends both games, but
                # MancalaGames drops the lifted counters and scores by its `quitter`.
                if not ours_over:
                    mismatches += 1
                    first = first or (path, number, history, "end: theirs endless, ours not over",
                                      mg_fen(game))
                else:
                    endless += 1
                break
            if cond is not None and cond.is_round_over():
                # The round is over, not the match: MancalaGames deals the next round when asked,
                # the engine at once.
                game.new_game(new_round=True)
                deal_as_ours(game, ours_fen)
                rounds += 1
            elif over:
                winner = game.get_winner()
                if cond is gi.WinCond.TIE:
                    expected = "draw"
                else:
                    expected = "p2win" if winner else "p1win"
                got = engine.query("result")
                if not ours_over or got != expected:
                    mismatches += 1
                    first = first or (path, number, history,
                                      f"end: theirs {expected}, ours over={ours_over} {got}",
                                      mg_fen(game))
                break
            if ours_fen != mg_fen(game):
                mismatches += 1
                first = first or (path, number, history,
                                  f"position: ours {ours_fen} theirs {mg_fen(game)}", "")
                break
    engine.close()
    return ("played", first, plies, mismatches, (stopped, endless), rounds)


def mg_perft(game, depth):
    """Leaves of MancalaGames' move tree, counted as RULES.md's perft counts them: a move that
    ends the game is a leaf, a forced pass is a move."""
    if depth == 0:
        return 1
    moves = [move for _, move in named_moves(game, game.get_moves())]
    if not moves:
        if not (game.info.mustpass and not any(game.get_allowable_holes())):
            return 0
        moves = ["pass"]
    if depth == 1:
        return len(moves)
    total = 0
    for move in moves:
        saved = game.state
        if move == "pass":
            game.turn = not game.turn
            if tracks_extra_move(game):
                game.rturn_cnt = 0  # a pass ends the turn (RULES.md), as in run_file
            cond = None
        else:
            cond = game.move(move)
        # A move that ends a round is a leaf, as one that ends the game (the engine's perft
        # counts positions, and a round's end is one).
        if not (cond is not None and (cond.is_game_over() or cond.is_round_over())):
            total += mg_perft(game, depth - 1)
        game.state = saved
    return total


def print_perft(path, depth, engine_bin, out_dir):
    """Golden perft lines (tests/data/catalogue-perft.txt) of the file's translated game, from
    MancalaGames' own code, South to move at the start."""
    import man_config

    _, game_file = translate(path, engine_bin, out_dir)
    if game_file is None:
        return
    name = os.path.basename(game_file)[:-len(".toml")]
    game, _ = man_config.make_game(path)
    game.turn = False
    game.starter = False
    south_start(game)
    for d in range(1, depth + 1):
        print(f"{name} startpos {d} {mg_perft(game, d)}", flush=True)
    if game.info.rounds and (game.info.blocks or game.info.goal == 2
                             or game.rtally is not None):
        # And from the start of a later round with blocked pits, in a match for territory with
        # pits that changed hands, or in a match of rounds won with a round won (a seeded
        # random match), to depth 4 at most.
        fen = later_round(path, random.Random(52))
        for d in range(1, min(depth, 4) + 1):
            print(f"{name} {mg_fen(fen)} {d} {mg_perft(fen, d)}", flush=True)
    if game.info.sow_rule in (1, 2):
        # And from a position with closed pits (a seeded random game), to depth 4 at most.
        closed = with_closed_pits(path, random.Random(52))
        for d in range(1, min(depth, 4) + 1):
            print(f"{name} {mg_fen(closed)} {d} {mg_perft(closed, d)}", flush=True)


def with_closed_pits(path, rng):
    """MancalaGames' game, in random games from South's start, once two pits are closed and
    the player to move has at least two moves."""
    import man_config

    while True:
        game, _ = man_config.make_game(path)
        south_start(game)
        for _ in range(5000):
            moves = game.get_moves()
            if sum(game.blocked) >= 2 and len(moves) >= 2:
                return game
            if not moves:
                break
            cond = game.move(rng.choice(moves))
            if cond is not None and cond.is_game_over():
                break


def deal_as_ours(game, fen):
    """A round dealt at random (a match of rounds won whose start is random): MancalaGames'
    own deal is replaced by the engine's, which a seed from the round's end chooses (RULES.md,
    "Matches of rounds"); from a given deal, play is the same."""
    import game_info as gi
    if game.info.start_pattern == gi.StartPattern.RANDOM:
        fields = fen.split("-")
        holes = game.cts.dbl_holes
        game.board = [int(f) for f in fields[:holes]]
        game.store = [int(fields[holes]), int(fields[holes + 1])]


def south_start(game):
    """MancalaGames' start as `position startpos` is South's: a pattern filled for South's start
    (MancalaGames draws who starts, and turns some patterns round for North), a start dealt at
    random as the equal deal."""
    import game_info as gi
    from fill_patterns import PCLASSES
    game.turn = False
    game.starter = False
    pattern = game.info.start_pattern
    if pattern == gi.StartPattern.RANDOM:
        pits = game.cts.dbl_holes
        game.board = [sum(game.board) // pits] * pits
    elif pattern == gi.StartPattern.MOVE_RIGHTMOST:
        # The opening move was made by the starter drawn: made again from the equal deal by
        # South.
        game.board = [game.cts.nbr_start] * game.cts.dbl_holes
        game.store = [0, 0]
        PCLASSES[pattern].fill_seeds(game)
    elif pattern:
        PCLASSES[pattern].fill_seeds(game)


def later_round(path, rng):
    """MancalaGames' game at the start of the first round, in random matches from South's start,
    that blocks a pit, in a match for territory gives a pit to the other player, or in a match
    of rounds won follows a round won."""
    import man_config

    while True:
        game, _ = man_config.make_game(path)
        game.turn = False
        game.starter = False
        for _ in range(5000):
            moves = game.get_moves()
            if not moves:
                if game.info.mustpass and game.test_pass():
                    continue
                break
            cond = game.move(rng.choice(moves))
            if cond is not None and cond.is_round_over():
                game.new_game(new_round=True)
                holes = game.cts.holes
                moved = game.info.goal == 2 and game.owner != [False] * holes + [True] * holes
                won = game.rtally is not None and sum(game.rtally.round_wins) > 0
                if any(game.blocked) or moved or won:
                    return game
            elif cond is not None and cond.is_game_over():
                break


def print_transcript(path, plies, engine_bin, out_dir, rng):
    """A protocol transcript (tests/transcripts/catalogue.in) of one random game of the file's
    translated game, `plies` long, each `query` answered as MancalaGames' own code answers it;
    checked against the engine here, so that the transcript's expected output is MancalaGames'."""
    import man_config
    import game_info as gi

    _, game_file = translate(path, engine_bin, out_dir)
    if game_file is None:
        return
    name = os.path.basename(game_file)
    engine = Engine(engine_bin, os.path.join(out_dir, name))
    game, _ = man_config.make_game(path)
    game.turn = False
    game.starter = False
    south_start(game)
    lines = [f"setoption name GameFile value tests/data/catalogue/{name}", "position startpos"]
    engine.ask("position startpos")
    for _ in range(plies):
        moves = game.get_moves()
        if not moves:
            break
        pairs = named_moves(game, moves)
        theirs = sorted(n for n, _ in pairs)
        if engine.query("gameover") == "true":
            # RULES.md's deliberate difference: the engine's history rules ended the game
            # (a position met the third time); the transcript ends there.
            break
        ours = sorted(engine.query("moves").split())
        assert ours == theirs, f"{name}: moves {ours} against {theirs}"
        lines.append("query moves")
        played, mg_move = pairs[rng.randrange(len(pairs))]
        cond = game.move(mg_move)
        engine.ask(f"move {played}")
        lines.append(f"move {played}")
        lines.append("query fen")
        if cond is not None and cond.is_game_over():
            # MancalaGames has already shared out the counters left: the result is compared.
            expected = "draw" if cond is gi.WinCond.TIE else (
                "p2win" if game.get_winner() else "p1win")
            assert engine.query("result") == expected, f"{name}: {played} ends the game"
            lines.append("query result")
            break
        if cond is not None and cond.is_round_over():
            game.new_game(new_round=True)  # the engine deals the next round at once
            deal_as_ours(game, engine.query("fen"))
        assert engine.query("fen") == mg_fen(game), f"{name}: {played}"
        if cond is not None and cond.is_ended() and not cond.is_round_over():
            break
    engine.close()
    print("\n".join(lines), flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--mancalagames", required=True,
                        help="a checkout of StoneShark/MancalaGames")
    parser.add_argument("--engine", default=os.path.join(
        HERE, "..", "target", "release", "mancala-engine"))
    parser.add_argument("--games", type=int, default=100, help="random games per file")
    parser.add_argument("--max-plies", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--transcript", type=int, default=0, metavar="PLIES",
                        help="print a protocol transcript of PLIES random plies a file, checked "
                             "against MancalaGames (tests/transcripts/catalogue.in)")
    parser.add_argument("--perft", type=int, default=0, metavar="DEPTH",
                        help="print MancalaGames' perft counts to DEPTH (the golden file's lines) "
                             "instead of playing games")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(args.mancalagames, "src"))
    rng = random.Random(args.seed)
    totals = {"played": 0, "refused": 0, "plies": 0, "mismatches": 0, "stopped": 0,
              "endless": 0, "rounds": 0}
    with tempfile.TemporaryDirectory() as out_dir:
        if args.transcript:
            for path in args.files:
                print_transcript(path, args.transcript, args.engine, out_dir, rng)
            print("quit")
            return
        if args.perft:
            for path in args.files:
                print_perft(path, args.perft, args.engine, out_dir)
            return
        for path in args.files:
            kind, detail, plies, mismatches, (stopped, endless), rounds = run_file(
                path, args, args.engine, out_dir, rng)
            totals[kind] += 1
            totals["plies"] += plies
            totals["mismatches"] += mismatches
            totals["stopped"] += stopped
            totals["endless"] += endless
            totals["rounds"] += rounds
            name = os.path.basename(path)
            if kind == "refused":
                continue
            print(f"{name}: {plies} plies, {mismatches} mismatches, {stopped} games stopped "
                  f"by the engine's history rules, {endless} ended by an endless move"
                  + (f", {rounds} rounds ended" if rounds else ""), flush=True)
            if detail:
                print(f"  first mismatch, game {detail[1]} after {' '.join(detail[2])}: "
                      f"{detail[3]} {detail[4]}", flush=True)
    print(f"{totals['played']} files played, {totals['refused']} refused; {totals['plies']} "
          f"plies, {totals['mismatches']} mismatches, {totals['stopped']} games stopped by "
          f"the engine's history rules, {totals['endless']} ended by an endless move, "
          f"{totals['rounds']} rounds ended (each dealt into the next)")
    sys.exit(1 if totals["mismatches"] else 0)


if __name__ == "__main__":
    main()
