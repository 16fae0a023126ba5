#include <iostream>

int main() {
    int n, count = 0;
    std::cin >> n;
    for (int i = 0; i < n; i++) {
        long long x;
        std::cin >> x;
        if (x % 2 == 0) count++;
    }
    std::cout << count << "\n";
}
