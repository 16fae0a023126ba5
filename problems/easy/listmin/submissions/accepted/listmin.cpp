#include <iostream>

int main() {
    int n;
    std::cin >> n;
    long long best;
    std::cin >> best;
    for (int i = 1; i < n; i++) {
        long long x;
        std::cin >> x;
        if (x < best) best = x;
    }
    std::cout << best << "\n";
}
