// Algospot TICTACTOE, solved by memoised minimax: a judge-style peer for benches/stress_figures.py.
#include <cstdio>
#include <cstring>
#include <string>
static const int L[8][3] = {{0,1,2},{3,4,5},{6,7,8},{0,3,6},{1,4,7},{2,5,8},{0,4,8},{2,4,6}};
static signed char memo[19683];
static bool won(const char *b, char m) {
    for (auto &l : L) if (b[l[0]] == m && b[l[1]] == m && b[l[2]] == m) return true;
    return false;
}
static int code(const char *b) { int c = 0; for (int i = 0; i < 9; i++) c = c * 3 + (b[i] == '.' ? 0 : b[i] == 'x' ? 1 : 2); return c; }
static int value(char *b, char me) {  // +1 the mover wins, 0 draw, -1 loses
    char you = me == 'x' ? 'o' : 'x';
    if (won(b, you)) return -1;
    int c = code(b);
    if (memo[c] != 2) return memo[c];
    int best = -2;
    for (int i = 0; i < 9; i++) if (b[i] == '.') {
        b[i] = me; int v = -value(b, you); b[i] = '.';
        if (v > best) best = v;
    }
    if (best == -2) best = 0;
    return memo[c] = best;
}
int main() {
    memset(memo, 2, sizeof memo);
    int t; if (scanf("%d", &t) != 1) return 1;
    while (t--) {
        char b[10] = {0}, row[8];
        for (int r = 0; r < 3; r++) { if (scanf("%7s", row) != 1) return 1; memcpy(b + 3 * r, row, 3); }
        int xs = 0, os = 0; for (int i = 0; i < 9; i++) { xs += b[i] == 'x'; os += b[i] == 'o'; }
        char me = xs == os ? 'x' : 'o';
        int v = value(b, me);
        puts(v == 0 ? "TIE" : v > 0 ? (me == 'x' ? "x" : "o") : (me == 'x' ? "o" : "x"));
    }
}
