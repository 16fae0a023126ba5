#include <iostream>

int main() {
    int n;
    std::cin >> n;
    long long lo, hi, x;
    std::cin >> x;
    lo = hi = x;
    for (int i = 1; i < n; i++) {
        std::cin >> x;
        if (x < lo) lo = x;
        if (x > hi) hi = x;
    }
    std::cout << hi - lo << "\n";
}
