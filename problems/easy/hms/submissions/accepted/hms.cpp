#include <iostream>

int main() {
    long long s;
    std::cin >> s;
    std::cout << s / 3600 << " " << s / 60 % 60 << " " << s % 60 << "\n";
}
