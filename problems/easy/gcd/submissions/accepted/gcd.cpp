#include <iostream>

int main() {
    long long a, b;
    std::cin >> a >> b;
    while (b != 0) {
        long long r = a % b;
        a = b;
        b = r;
    }
    std::cout << a << "\n";
}
