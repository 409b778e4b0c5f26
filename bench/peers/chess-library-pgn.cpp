/* SPDX-License-Identifier: MIT */
// A PGN driver for Disservin's chess-library (https://github.com/Disservin/chess-library), for
// bench/pgn-vs.sh only: its pgn::StreamParser reads the file, and every move of every game is
// read with uci::parseSan and played with Board::makeMove, as `dirfill pgn` reads, checks and
// plays every move. Build:
//   g++ -std=c++17 -O3 -march=native -DNDEBUG -I CHESS_LIBRARY/include chess-library-pgn.cpp -o cl_pgn
// Run: cl_pgn FILE [--parse-only]; prints "games G plies P errors E seconds S" on stdout.
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>

#include "chess.hpp"
using namespace chess;

class Replay : public pgn::Visitor
{
  public:
    explicit Replay(bool play) : play_(play) {}
    void startPgn() override { fen_.clear(); }
    void header(std::string_view key, std::string_view value) override
    {
        if (key == "FEN") fen_ = value;
    }
    void startMoves() override
    {
        board_.setFen(fen_.empty() ? std::string_view(constants::STARTPOS)
                                   : std::string_view(fen_));
        broken_ = false;
    }
    void move(std::string_view san, std::string_view) override
    {
        if (!play_ || broken_) return;
        try {
            const Move m = uci::parseSan(board_, san, moves_);
            if (m == Move::NO_MOVE) {
                broken_ = true;
                return;
            }
            board_.makeMove(m);
            plies++;
        } catch (const uci::SanParseError &) {
            broken_ = true;
        }
    }
    void endPgn() override
    {
        games++;
        errors += broken_;
    }
    long games = 0, plies = 0, errors = 0;

  private:
    bool play_, broken_ = false;
    Board board_;
    Movelist moves_;
    std::string fen_;
};

int main(int argc, char **argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s FILE [--parse-only]\n", argv[0]);
        return 2;
    }
    std::ifstream in(argv[1], std::ios::binary);
    if (!in) return 1;
    Replay visitor(!(argc > 2 && !std::strcmp(argv[2], "--parse-only")));
    const auto t0 = std::chrono::steady_clock::now();
    pgn::StreamParser parser(in);
    const auto error = parser.readGames(visitor);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("games %ld plies %ld errors %ld seconds %.6f\n", visitor.games, visitor.plies,
                visitor.errors, s);
    return error ? 1 : 0;
}
