#include <iostream>

int main() {
    int n;
    long long x;
    std::cin >> n >> x;
    int count = 0;
    for (int i = 0; i < n; i++) {
        long long a;
        std::cin >> a;
        if (a == x) count++;
    }
    std::cout << count << "\n";
}
