/* SPDX-License-Identifier: MIT */
// A perft driver for Disservin's chess-library (https://github.com/Disservin/chess-library),
// for bench/perft-vs.sh only: bulk counting at the last ply, as dirfill counts. Build:
//   g++ -std=c++17 -O3 -march=native -I CHESS_LIBRARY/include chess-library-perft.cpp -o cl_perft
// Run: cl_perft FEN DEPTH (node count on stdout, seconds on stderr).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include "chess.hpp"
using namespace chess;
static uint64_t perft(Board &b, int depth)
{
    Movelist moves;
    movegen::legalmoves(moves, b);
    if (depth == 1) return moves.size();
    uint64_t n = 0;
    for (const auto &m : moves) {
        b.makeMove(m);
        n += perft(b, depth - 1);
        b.unmakeMove(m);
    }
    return n;
}
int main(int argc, char **argv)
{
    Board b(argv[1]);
    const int depth = std::atoi(argv[2]);
    const auto t0 = std::chrono::steady_clock::now();
    const uint64_t n = depth ? perft(b, depth) : 1;
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::fprintf(stderr, "%.6f s\n", s);
    std::printf("%llu\n", (unsigned long long)n);
}
