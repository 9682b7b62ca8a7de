// BOJ 7682, valid final tic-tac-toe boards: a judge-style peer for benches/stress_figures.py.
#include <cstdio>
#include <cstring>
static const int L[8][3] = {{0,1,2},{3,4,5},{6,7,8},{0,3,6},{1,4,7},{2,5,8},{0,4,8},{2,4,6}};
static bool won(const char *b, char m) {
    for (auto &l : L) if (b[l[0]] == m && b[l[1]] == m && b[l[2]] == m) return true;
    return false;
}
int main() {
    char b[64];
    while (scanf("%63s", b) == 1 && strcmp(b, "end") != 0) {
        int x = 0, o = 0; for (int i = 0; i < 9; i++) { x += b[i] == 'X'; o += b[i] == 'O'; }
        bool xw = won(b, 'X'), ow = won(b, 'O'), ok;
        if (x != o && x != o + 1) ok = false;
        else if (xw && ow) ok = false;
        else if (xw) ok = x == o + 1;
        else if (ow) ok = x == o;
        else ok = x + o == 9;
        puts(ok ? "valid" : "invalid");
    }
}
