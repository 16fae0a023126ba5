#include <iostream>

int main() {
    int n;
    std::cin >> n;
    long long total = 0;
    for (int i = 0; i < n; i++) {
        long long x;
        std::cin >> x;
        total += x;
    }
    std::cout << total << "\n";
}
